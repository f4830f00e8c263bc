/**
 * What a route's request limit costs on PostgreSQL (docs/decisions/2026-12-01-shared-rate-limits.md): the shared
 * store's upsert, one per counted request. The app runs in a process of its own on a fresh database, with three routes
 * added for the bench that answer the same {"ok":true}:
 *   GET /bench/plain     no limit, no statement
 *   GET /bench/select    no limit, one trivial statement (`select 1`, prepared as the store's upsert is): the round
 *                        trip to PostgreSQL alone, to tell it from the upsert's own cost
 *   GET /bench/limited   no statement, config.rateLimit with a limit never reached (1,000,000,000 an hour), keyed by ?k=
 * and the project's load generator (bench/load.ts) drives each with 1 client and with 20: the limited route on one key
 * (every request updates the same row, as one client hammering a route does) and on 1,000 keys in turn (many clients).
 * Each row prints requests/s, latency, and the CPU ms per request of the app's process and of the database's server
 * processes serving its database. It measures and prints; it asserts nothing.
 *
 * Run: nice -n 5 node --import tsx bench/rate-limit.ts
 * Environment (all optional):
 *   DATABASE_URL    admin connection (default postgres://postgres@127.0.0.1:5432/postgres); the bench creates and
 *                   drops its own database on it (cove_bench_rate_limit)
 *   BENCH_SECONDS   measured seconds per row (default 10, after 2 s of warm-up)
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase, preparedRows } from "../apps/api/src/platform/db.ts";
import { type Call, cpuSampler, drive, type LoadResult, table } from "./load.ts";

const DB_NAME = "cove_bench_rate_limit";
const SERVER_ENV = "RATE_LIMIT_BENCH_DATABASE";

/** The child: the app with the three routes, listening on a free port, which it sends to the parent. */
async function serve(url: string): Promise<void> {
  const database = await openDatabase({ kind: "postgres", url });
  const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-bench-outbox-"));
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.cove.test>", outboxDir },
    publicUrl: "http://127.0.0.1",
  });
  app.get("/bench/plain", async () => ({ ok: true }));
  app.get("/bench/select", async () => {
    await preparedRows(app.db, sql`select 1 as one`);
    return { ok: true };
  });
  app.get(
    "/bench/limited",
    {
      config: {
        rateLimit: {
          max: 1_000_000_000,
          timeWindow: "1 hour",
          keyGenerator: (req) => String((req.query as { k?: string }).k ?? ""),
        },
      },
    },
    async () => ({ ok: true }),
  );
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  process.send?.({ port: address.port });
  process.once("SIGTERM", () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => {
        rmSync(outboxDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(adminUrl);
  url.pathname = `/${DB_NAME}`;

  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [SERVER_ENV]: url.toString(), AI_SENTENCE_ENCODER: "false", NODE_ENV: "production" },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("the app process did not start");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once("message", (m) => resolve((m as { port: number }).port));
      child.once("exit", (code) => reject(new Error(`the app process exited (${code})`)));
    });
    const cpu = cpuSampler(pid, admin, DB_NAME);
    const calls = (route: string, keys: number): Call[] =>
      Array.from({ length: keys }, (_, i) => ({ path: `/bench/${route}?k=${i}`, token: "none" }));
    const rows: [string, Call[]][] = [
      ["no limit", calls("plain", 1)],
      ["no limit, select 1", calls("select", 1)],
      ["limit, one key", calls("limited", 1)],
      ["limit, 1,000 keys", calls("limited", 1000)],
    ];
    const results: LoadResult[] = [];
    for (const concurrency of [1, 20]) {
      for (const [name, routeCalls] of rows) {
        results.push(
          await drive(
            { name: `${name}, ${concurrency} client${concurrency > 1 ? "s" : ""}`, calls: routeCalls },
            { port, concurrency, warmupMs: 2000, durationMs: seconds * 1000, cpu },
          ),
        );
      }
    }
    console.log(table(results, ["app", "db"]));
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    child.kill("SIGTERM");
    await exited;
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  }
}

const databaseUrl = process.env[SERVER_ENV];
await (databaseUrl ? serve(databaseUrl) : main());
