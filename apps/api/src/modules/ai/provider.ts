import type { AiSource, AiTone, ConversationTurn } from "@cove/contract/ai.ts";

/** An article retrieval found for the question, with the passage of it that matches best. */
export interface Candidate {
  id: string;
  title: string;
  url: string;
  /** Retrieval score (0..1), for ordering. */
  score: number;
  /** Calibrated probability that this article answers the question. */
  confidence: number;
  /** The relevant passage, plain text. */
  passage: string;
  /** The whole article body (Markdown), for providers that read more than the passage. */
  body: string;
}

/** What every provider receives: the question and what retrieval found. Providers never see another organization. */
export interface ProviderInput {
  question: string;
  conversation: ConversationTurn[];
  plan: string | undefined;
  tone: AiTone;
  /** Below this confidence the assistant hands off. */
  threshold: number;
  /** Best first; empty when the knowledge base has nothing related. */
  candidates: Candidate[];
}

export interface Draft {
  response: string;
  confidence: number;
  suggestedActions: string[];
  sources: AiSource[];
  handoff: boolean;
  /** Which provider produced the answer, as logged in ai_answers.provider. */
  provider: string;
}

export interface AiProvider {
  readonly name: string;
  answer(input: ProviderInput): Promise<Draft>;
}

export const TALK_TO_HUMAN = "Talk to a human";
export const readAction = (title: string) => `Read: ${title}`;

export const REPLIES = {
  noAnswer:
    "I couldn't find an answer to that in our help articles, and I'd rather not guess. Would you like me to connect you with a person from our team?",
  personRequested: "Of course. I'll connect you with a person from our team.",
  disabled: "Our automated assistant is switched off right now. A person from our team will help you.",
} as const;

/** A hand-off answer: no sources, since no article answered. */
export function handoffDraft(response: string, confidence: number, provider: string, related: Candidate[] = []): Draft {
  return {
    response,
    confidence,
    suggestedActions: [TALK_TO_HUMAN, ...related.slice(0, 1).map((c) => readAction(c.title))],
    sources: [],
    handoff: true,
    provider,
  };
}
