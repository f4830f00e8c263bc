import { openAiError, startOpenAiServer } from "./openai-server.ts";

/**
 * A local HTTP server that speaks the OpenAI chat-completions protocol (POST /v1/chat/completions), standing in for
 * a model provider we cannot reach from tests or the benchmark. Its "model" is deliberately simple and predictable:
 * it answers with the most relevant passage of article [1] and cites it. Other behaviours reproduce what a real
 * provider does on a bad day: slowness, errors, malformed or rule-breaking replies.
 */
export type ModelBehaviour =
  | "answer"
  | "handoff"
  | "slow"
  | "error"
  | "not-json"
  | "cite-unknown"
  | "invent-link"
  | "fenced";

export interface RecordedRequest {
  authorization: string | undefined;
  body: { model?: string; temperature?: number; messages?: { role: string; content: string }[] };
}

export interface ChatCompletionsServer {
  /** Base URL to configure as AI_BASE_URL, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  requests: RecordedRequest[];
  behaviour: ModelBehaviour;
  /** Delay of the "slow" behaviour. */
  slowMs: number;
  close(): Promise<void>;
}
/** The "Most relevant passage" of article [1] in the prompt the provider sent. */
function firstPassage(prompt: string): string | null {
  const match = /\[1\][^\n]*\nURL: [^\n]*\nMost relevant passage: ([\s\S]*?)\nFull article:/.exec(prompt);
  return match?.[1]?.trim() ?? null;
}

function reply(content: string) {
  return {
    id: `chatcmpl-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "local-test-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

export async function startChatCompletionsServer(
  opts: { apiKey?: string; behaviour?: ModelBehaviour } = {},
): Promise<ChatCompletionsServer> {
  const state: ChatCompletionsServer = {
    url: "",
    requests: [],
    behaviour: opts.behaviour ?? "answer",
    slowMs: 2_000,
    close: async () => {},
  };
  const record = (body: RecordedRequest["body"], authorization: string | undefined) => {
    state.requests.push({ authorization, body });
  };
  const server = await startOpenAiServer("/v1/chat/completions", opts, record, async ({ body, send, sendLate }) => {
    if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
      return send(400, openAiError("model and messages are required"));
    }
    const prompt = body.messages[body.messages.length - 1]?.content ?? "";
    const passage = firstPassage(prompt);
    const answer = (text: string, sources: number[]) => JSON.stringify({ answer: text, sources, handoff: false });
    switch (state.behaviour) {
      case "error":
        return send(500, openAiError("The server had an error", "server_error"));
      case "slow":
        return sendLate(state.slowMs, reply(answer(`Slowly: ${passage}`, [1])));
      case "not-json":
        return send(200, reply("Sure! Returns are easy, just send it back whenever you like."));
      case "cite-unknown":
        return send(200, reply(answer(`${passage}`, [7])));
      case "invent-link":
        return send(200, reply(answer(`${passage} Details: https://totally-made-up.example/returns-policy.`, [1])));
      case "handoff":
        return send(200, reply(JSON.stringify({ answer: "", sources: [], handoff: true })));
      case "fenced":
        return send(200, reply(`\`\`\`json\n${answer(`Per our article: ${passage}`, [1])}\n\`\`\``));
      default:
        if (!passage) return send(200, reply(JSON.stringify({ answer: "", sources: [], handoff: true })));
        return send(200, reply(answer(`From our help center: ${passage}`, [1])));
    }
  });
  state.url = server.url;
  state.close = server.close;
  return state;
}
