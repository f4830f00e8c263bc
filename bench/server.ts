/**
 * The app under test, in its own process (so the load generator does not share its event loop): opens the database,
 * seeds it first when it is a fresh embedded one, listens on 127.0.0.1 and tells the parent its port over IPC.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase, queryRows } from "../apps/api/src/platform/db.ts";
import { type Run, type SeedPlan, seed } from "./seed.ts";

export type ServerTarget = (
  | { kind: "postgres"; url: string }
  | { kind: "embedded"; dir: string; plan: Omit<SeedPlan, "now"> & { now: string } }
) & {
  /** The app's answer cache budget in bytes (0: off). */
  answerCacheBytes: number;
};

export type ServerMessage =
  | { type: "ready"; port: number; orgId: string; adminId: string; ticketIds: string[]; seedSeconds: number | null }
  | { type: "failed"; error: string };

/** The answer to "gc": the process's memory in bytes right after a full collection (started with --expose-gc). */
export interface MemoryMessage {
  type: "memory";
  rss: number;
  heapUsed: number;
}

/** How many tickets of the largest organization the detail endpoint cycles through. */
const DETAIL_SAMPLE = 500;

function send(message: ServerMessage | MemoryMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const raw = process.env.BENCH_SERVER;
  if (!raw) throw new Error("BENCH_SERVER is not set: this process is started by bench/tickets.bench.ts");
  const target = JSON.parse(raw) as ServerTarget;

  const database = await openDatabase(
    target.kind === "postgres" ? { kind: "postgres", url: target.url } : { kind: "embedded", dir: target.dir },
  );
  const run: Run = (statement) => queryRows<Record<string, unknown>>(database.db, sql.raw(statement));

  const benchOrg = () =>
    run(
      "select o.id as org_id, u.id as admin_id, o.ticket_seq as n from organizations o join users u on u.organization_id = o.id and u.role = 'admin' where o.slug = 'bench-1'",
    );
  let seedSeconds: number | null = null;
  // An embedded database is seeded by the first app process that opens it; the next run (cache off) reuses it.
  if (target.kind === "embedded" && (await benchOrg()).length === 0) {
    const started = performance.now();
    await run("set maintenance_work_mem = '256MB'");
    await seed({ ...target.plan, now: new Date(target.plan.now) }, [run], (line) =>
      console.log(`  [embedded] ${line}`),
    );
    await run("reset maintenance_work_mem");
    seedSeconds = (performance.now() - started) / 1000;
  }

  const [org] = await benchOrg();
  if (!org) throw new Error("the benchmark organization bench-1 is missing: seed first");
  const step = Math.max(1, Math.floor(Number(org.n) / DETAIL_SAMPLE));
  const ids = await run(
    `select id from tickets where organization_id = '${String(org.org_id)}' and ticket_number % ${step} = 0 order by ticket_number limit ${DETAIL_SAMPLE}`,
  );

  const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-bench-outbox-"));
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.cove.test>", outboxDir },
    publicUrl: "http://127.0.0.1",
    answerCacheBytes: target.answerCacheBytes,
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
    if (message === "gc") {
      globalThis.gc?.();
      const m = process.memoryUsage();
      send({ type: "memory", rss: m.rss, heapUsed: m.heapUsed });
    }
  });
  process.on("disconnect", () => void close());

  send({
    type: "ready",
    port: address.port,
    orgId: String(org.org_id),
    adminId: String(org.admin_id),
    ticketIds: ids.map((r) => String(r.id)),
    seedSeconds,
  });
}

main().catch((err: unknown) => {
  send({ type: "failed", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
