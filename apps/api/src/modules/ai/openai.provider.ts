import { z } from "zod";
import { answerFromPassages } from "./embedded.provider.ts";
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

export interface OpenAiConfig {
  /** Base of an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export const OPENAI_PROVIDER = "openai";
export const FALLBACK_PROVIDER = "embedded-fallback";

/** How much of each article the model reads; the best passage always comes first. */
const ARTICLE_CHARS = 2500;
/** Earlier turns passed along, most recent last. */
const TURNS = 6;

const SYSTEM_PROMPT = [
  "You are the customer support assistant of a company. Answer the customer's question using only the numbered",
  "knowledge base articles in the last message. Never state a policy, price, date, phone number or link that is not",
  "written in those articles, and never guess. Reply with one JSON object and nothing else:",
  '{"answer": "<your answer>", "sources": [<numbers of the articles you used>], "handoff": false}.',
  'If the articles do not answer the question, reply {"answer": "", "sources": [], "handoff": true}.',
].join(" ");

const TONES = {
  friendly: "Write warmly and plainly, in two to four sentences.",
  professional: "Write formally and precisely, in two to four sentences.",
  concise: "Write one or two short sentences.",
} as const;

const modelReply = z.object({
  answer: z.string().max(4000),
  sources: z.array(z.number().int()).max(10),
  handoff: z.boolean(),
});

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

function articleBlock(c: Candidate, n: number): string {
  const rest = c.body.length > ARTICLE_CHARS ? `${c.body.slice(0, ARTICLE_CHARS)}…` : c.body;
  return `[${n}] ${c.title}\nURL: ${c.url}\nMost relevant passage: ${c.passage}\nFull article:\n${rest}`;
}

export function buildMessages(input: ProviderInput) {
  const articles = input.candidates.map((c, i) => articleBlock(c, i + 1)).join("\n\n");
  const plan = input.plan ? `\n\nThe customer's plan: ${input.plan}` : "";
  return [
    { role: "system" as const, content: `${SYSTEM_PROMPT} ${TONES[input.tone]}` },
    ...input.conversation.slice(-TURNS).map((t) => ({ role: t.role, content: t.content })),
    {
      role: "user" as const,
      content: `Knowledge base articles:\n\n${articles}${plan}\n\nCustomer question: ${input.question}`,
    },
  ];
}

/** The JSON object in a model's reply, which some models wrap in a code fence or a sentence. */
export function parseModelReply(content: string): z.infer<typeof modelReply> {
  const start = content.indexOf("{");
  const end = content.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the model's reply holds no JSON object");
  return modelReply.parse(JSON.parse(content.slice(start, end + 1)));
}

/** Removes any web address the articles do not contain: the model must not send customers anywhere we did not. */
export function withoutInventedLinks(answer: string, candidates: Candidate[]): string {
  const known = candidates.map((c) => `${c.body}\n${c.url}`).join("\n");
  return answer
    .replace(/https?:\/\/[^\s)\]}>"']+/g, (url) => (known.includes(url.replace(/[.,;:!?]+$/, "")) ? url : ""))
    .replace(/\(\s*\)/g, "")
    .replace(/[ \t]+([.,;:!?])/g, "$1")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

async function complete(config: OpenAiConfig, input: ProviderInput): Promise<string> {
  const res = await fetch(`${config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: config.model, temperature: 0, messages: buildMessages(input) }),
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  if (!res.ok) throw new Error(`the model answered HTTP ${res.status}`);
  const content = completion.parse(await res.json()).choices[0]?.message.content;
  if (!content) throw new Error("the model's reply is empty");
  return content;
}

/**
 * Retrieves exactly as the embedded provider does, then lets the model phrase the answer from those articles only.
 * Its citations are checked against what it was given; a timeout, an error or a reply that breaks the rules falls
 * back to the embedded answer, so a customer always gets one.
 */
export function createOpenAiProvider(config: OpenAiConfig, warn: (msg: string) => void = () => {}): AiProvider {
  return {
    name: OPENAI_PROVIDER,
    async answer(input: ProviderInput): Promise<Draft> {
      const best = input.candidates[0];
      // Nothing the knowledge base says is close enough: asking the model would only invite a guess.
      if (!best || best.confidence < input.threshold) return answerFromPassages(input, OPENAI_PROVIDER);
      try {
        const reply = parseModelReply(await complete(config, input));
        if (reply.handoff) {
          // The model read the articles and found no answer: low confidence, whatever the scores said.
          return handoffDraft(REPLIES.noAnswer, Math.min(best.confidence, 0.2), OPENAI_PROVIDER);
        }
        const cited = [...new Set(reply.sources)].map((n) => input.candidates[n - 1]);
        if (cited.length === 0 || cited.some((c) => c === undefined)) {
          throw new Error("the model cited no article, or one it was not given");
        }
        const sources = cited.filter((c): c is Candidate => c !== undefined);
        const answer = withoutInventedLinks(reply.answer, input.candidates);
        if (!answer) throw new Error("the model's answer is empty");
        return {
          response: answer,
          confidence: Math.max(...sources.map((c) => c.confidence)),
          suggestedActions: [...sources.slice(0, 2).map((c) => readAction(c.title)), TALK_TO_HUMAN],
          sources: sources.map((c) => ({ id: c.id, title: c.title, url: c.url })),
          handoff: false,
          provider: OPENAI_PROVIDER,
        };
      } catch (err) {
        warn(`AI provider ${config.baseUrl} failed, answering with the embedded provider: ${(err as Error).message}`);
        return answerFromPassages(input, FALLBACK_PROVIDER);
      }
    },
  };
}
