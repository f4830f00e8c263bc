import type { AiTone } from "@cove/contract/ai.ts";
import {
  type AiProvider,
  type Candidate,
  type Draft,
  handoffDraft,
  type ProviderInput,
  REPLIES,
  readAction,
  TALK_TO_HUMAN,
} from "./provider.ts";

export const EMBEDDED_PROVIDER = "embedded";

/**
 * A runner-up whose score is this close to the best is worth offering as further reading: the question may be
 * between two articles.
 */
const RUNNER_UP_RATIO = 0.9;

function frame(tone: AiTone, best: Candidate): string {
  switch (tone) {
    case "professional":
      return `According to our help article "${best.title}":\n\n${best.passage}`;
    case "concise":
      return best.passage;
    default:
      return `Here's what our help article "${best.title}" says:\n\n${best.passage}`;
  }
}

/**
 * The default provider: no network, no key. It answers with the relevant passage of the best article, word for
 * word, so it can never state a policy, price or link the knowledge base does not contain.
 */
export function answerFromPassages(input: ProviderInput, provider = EMBEDDED_PROVIDER): Draft {
  const [best, second] = input.candidates;
  if (!best || best.confidence < input.threshold || !best.passage) {
    return handoffDraft(REPLIES.noAnswer, best?.confidence ?? 0, provider);
  }
  const further = second && second.score >= best.score * RUNNER_UP_RATIO ? [readAction(second.title)] : [];
  return {
    response: frame(input.tone, best),
    confidence: best.confidence,
    suggestedActions: [readAction(best.title), ...further, TALK_TO_HUMAN],
    sources: [{ id: best.id, title: best.title, url: best.url }],
    handoff: false,
    provider,
  };
}

export const embeddedProvider: AiProvider = {
  name: EMBEDDED_PROVIDER,
  answer: async (input) => answerFromPassages(input),
};
