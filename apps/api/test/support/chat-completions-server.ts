import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

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

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

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
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      return send(404, { error: { message: "Unknown route", type: "invalid_request_error" } });
    }
    const raw = await readBody(req);
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(raw) as RecordedRequest["body"];
    } catch {
      return send(400, { error: { message: "Invalid JSON", type: "invalid_request_error" } });
    }
    state.requests.push({ authorization: req.headers.authorization, body });
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } });
    }
    if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
      return send(400, { error: { message: "model and messages are required", type: "invalid_request_error" } });
    }
    const prompt = body.messages[body.messages.length - 1]?.content ?? "";
    const passage = firstPassage(prompt);
    const answer = (text: string, sources: number[]) => JSON.stringify({ answer: text, sources, handoff: false });
    switch (state.behaviour) {
      case "error":
        return send(500, { error: { message: "The server had an error", type: "server_error" } });
      case "slow":
        await new Promise((r) => setTimeout(r, state.slowMs));
        return res.destroyed ? undefined : send(200, reply(answer(`Slowly: ${passage}`, [1])));
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
