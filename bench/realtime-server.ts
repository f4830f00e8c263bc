/**
 * One app instance for bench/realtime.bench.ts, in its own process: the real app on the given PostgreSQL database,
 * listening on 127.0.0.1. It tells the parent its port over IPC and answers "memory" with its heap and RSS.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";

export type RealtimeServerMessage =
  | { type: "ready"; port: number }
  | { type: "memory"; rss: number; heapUsed: number; sockets: number }
  | { type: "failed"; error: string };

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error("BENCH_DATABASE_URL is not set: this process is started by bench/realtime.bench.ts");
  const database = await openDatabase({ kind: "postgres", url });
  const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-bench-outbox-"));
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.cove.test>", outboxDir },
    publicUrl: "http://127.0.0.1",
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("the app is not listening on a TCP port");

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await database.close();
    rmSync(outboxDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", (message) => {
    if (message === "stop") void close();
    if (message === "memory") {
      global.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.send?.({ type: "memory", rss, heapUsed, sockets: app.realtime.stats().sockets });
    }
  });
  process.on("disconnect", () => void close());
  process.send?.({ type: "ready", port: address.port } satisfies RealtimeServerMessage);
}

main().catch((err: unknown) => {
  process.send?.({ type: "failed", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
