/**
 * The app under `npm run stress`, in its own process so the load generator does not share its event loop or its
 * memory figures: opens the PostgreSQL database it is given (migrating it), listens on 127.0.0.1 and tells the parent
 * its port over IPC. Mail goes to an outbox directory the parent reads invitation links from.
 */
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";

export interface StressServerConfig {
  url: string;
  outboxDir: string;
}

/** Memory as the server sees it: the process's RSS, V8's heap in use, and what the answer cache holds. */
export interface MemorySample {
  rssMb: number;
  heapMb: number;
  answerCacheMb: number;
}

export type StressServerMessage =
  | { type: "ready"; port: number }
  | { type: "memory"; sample: MemorySample }
  | { type: "failed"; error: string };

const send = (message: StressServerMessage) => process.send?.(message);

async function main(): Promise<void> {
  const raw = process.env.STRESS_SERVER;
  if (!raw) throw new Error("STRESS_SERVER is not set: this process is started by bench/stress.ts");
  const config = JSON.parse(raw) as StressServerConfig;
  const database = await openDatabase({ kind: "postgres", url: config.url });
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@stress.cove.test>", outboxDir: config.outboxDir },
    publicUrl: "http://cove.test",
    // The run signs up its organizations from one address.
    registrationsPerHour: 10_000,
    // Each simulated person sends X-Forwarded-For with an address of their own, as a proxy in front would.
    trustProxy: true,
    jobs: { pollingIntervalSeconds: 0.5 },
    // Errors only: a 5xx is logged with its cause, which is what a failed run needs to show.
    logger: { level: "error" },
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
    process.exit(0);
  };
  const mb = (bytes: number) => bytes / 1024 / 1024;
  process.on("message", (message) => {
    if (message === "stop") void close();
    if (message === "memory") {
      const { rss, heapUsed } = process.memoryUsage();
      send({
        type: "memory",
        sample: { rssMb: mb(rss), heapMb: mb(heapUsed), answerCacheMb: mb(app.answers.stats().bytes) },
      });
    }
  });
  process.on("disconnect", () => void close());
  send({ type: "ready", port: address.port });
}

main().catch((err: unknown) => {
  send({ type: "failed", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
