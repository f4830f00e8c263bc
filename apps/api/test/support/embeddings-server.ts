import { createHash } from "node:crypto";
import { openAiError, startOpenAiServer } from "./openai-server.ts";

/**
 * A local HTTP server that speaks the OpenAI embeddings protocol (POST /v1/embeddings: `{ model, input: string[] }`
 * in, `{ data: [{ index, embedding }], model, usage }` out), standing in for Ollama or OpenAI in tests and the
 * calibration command's own check. Its "model" is simple and predictable: each word (lower-cased, its last "s" off)
 * adds a fixed pseudo-random direction, so texts sharing words are near and others far. Other behaviours reproduce a
 * bad day: slowness, a 500, an answer that is not JSON, one of the wrong dimension.
 */
export type EmbeddingsBehaviour = "answer" | "slow" | "error" | "not-json" | "wrong-dimension";

export interface EmbeddingsServer {
  /** Base URL to configure as AI_EMBEDDINGS_URL, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  /** Each request's model, number of inputs and authorization header. */
  requests: { model: string; inputs: number; authorization: string | undefined }[];
  behaviour: EmbeddingsBehaviour;
  dimensions: number;
  slowMs: number;
  close(): Promise<void>;
}

/** The word's fixed direction: components from its hash, in [-1, 1]. */
function direction(word: string, dimensions: number): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < dimensions; block++) {
    const bytes = createHash("sha256").update(`${block}:${word}`).digest();
    for (const b of bytes) if (out.length < dimensions) out.push(b / 127.5 - 1);
  }
  return out;
}

export function embed(text: string, dimensions: number): number[] {
  const sum = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = raw.length > 3 ? raw.replace(/s$/, "") : raw;
    direction(word, dimensions).forEach((v, d) => {
      sum[d] = (sum[d] ?? 0) + v;
    });
  }
  return sum;
}

export async function startEmbeddingsServer(
  opts: { apiKey?: string; dimensions?: number } = {},
): Promise<EmbeddingsServer> {
  const state: EmbeddingsServer = {
    url: "",
    requests: [],
    behaviour: "answer",
    dimensions: opts.dimensions ?? 64,
    slowMs: 2_000,
    close: async () => {},
  };
  type Body = { model?: string; input?: unknown };
  const inputOf = (body: Body) => (Array.isArray(body.input) ? body.input.map(String) : []);
  const record = (body: Body, authorization: string | undefined) => {
    state.requests.push({ model: body.model ?? "", inputs: inputOf(body).length, authorization });
  };
  const server = await startOpenAiServer("/v1/embeddings", opts, record, async ({ body, res, send, sendLate }) => {
    const input = inputOf(body);
    if (!body.model || input.length === 0 || input.some((t) => t.length === 0)) {
      return send(400, openAiError("model and non-empty input are required"));
    }
    const data = input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: embed(
        text,
        state.behaviour === "wrong-dimension" && index > 0 ? state.dimensions + 1 : state.dimensions,
      ),
    }));
    const answer = { object: "list", data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } };
    switch (state.behaviour) {
      case "error":
        return send(500, openAiError("The server had an error", "server_error"));
      case "not-json":
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>Bad gateway</html>");
        return;
      case "slow":
        return sendLate(state.slowMs, answer);
      default:
        return send(200, answer);
    }
  });
  state.url = server.url;
  state.close = server.close;
  return state;
}
