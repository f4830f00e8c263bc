import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** An OpenAI-style error answer. */
export const openAiError = (message: string, type = "invalid_request_error") => ({ error: { message, type } });

export interface OpenAiExchange<B> {
  body: B;
  res: ServerResponse;
  /** Answers with this status and JSON body. */
  send(status: number, answer: unknown): void;
  /** Answers after `ms` (the "slow" behaviour), unless the client has given up by then. */
  sendLate(ms: number, answer: unknown): Promise<void>;
}

/**
 * A local HTTP server for one POST route of an OpenAI-style API (…/v1/chat/completions, …/v1/embeddings), answering
 * as OpenAI does what every such route shares: 404 for another route, 400 for a body that is not JSON, and, after
 * `record` has seen the request, 401 for a wrong key when `apiKey` is set. `answer` does the rest. Returns the base URL
 * to configure (http://127.0.0.1:PORT/v1) and how to close it.
 */
export async function startOpenAiServer<B>(
  route: string,
  opts: { apiKey?: string },
  record: (body: B, authorization: string | undefined) => void,
  answer: (exchange: OpenAiExchange<B>) => Promise<void> | void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== route) return send(404, openAiError("Unknown route"));
    let body: B;
    try {
      body = JSON.parse(await readBody(req)) as B;
    } catch {
      return send(400, openAiError("Invalid JSON"));
    }
    record(body, req.headers.authorization);
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, openAiError("Incorrect API key provided"));
    }
    const sendLate = async (ms: number, late: unknown) => {
      await new Promise((r) => setTimeout(r, ms));
      if (!res.destroyed) send(200, late);
    };
    await answer({ body, res, send, sendLate });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
