import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a test receiver got: its headers and raw body. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver on 127.0.0.1 (webhooks and Slack tests, the benchmark): it records every request and answers
 * with what answer() says for it (200 when absent). answer may also hold the request (never answering it).
 */
export async function startReceiver(answer?: (req: Received, n: number, res: ServerResponse) => number | "hang") {
  const received: Received[] = [];
  const waiting = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const got = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(got);
      for (const wake of waiting) wake();
      const status = answer ? answer(got, received.length, res) : 200;
      if (status === "hang") return;
      if (!res.writableEnded) res.writeHead(status, { "Content-Type": "text/plain" }).end(`answer ${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Waits until check(received) holds (up to 15 s), and answers what it found. */
    async until<T>(check: (all: Received[]) => T | undefined | false): Promise<T> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = check(received);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`receiver: still waiting after ${received.length} requests`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            resolve();
          };
          waiting.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
