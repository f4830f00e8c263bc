/**
 * npm run bench:reports: the reports (issue 31) on PostgreSQL at the scale. Seeds an organization of 105,000
 * tickets over a year (bench/seed.ts, with their comments and status changes) plus what the reports read besides:
 * first responses, SLA due times on high and urgent tickets, a reopen on one solved ticket in twenty, a satisfaction
 * survey per solved ticket (a third answered), 30,000 chats and 20,000 assistant answers. Then drives the real app over
 * HTTP: a 90-day report with 10 concurrent clients (p99 is the figure, at most 300 ms), and the per-ticket CSV
 * of the whole year (about 100,000 rows): time to the first byte, to the last, and the app process's memory while it
 * streams, against a CSV a tenth as long. It measures and prints; it asserts nothing.
 *
 * Environment (all optional):
 *   DATABASE_URL        admin connection (default postgres://postgres@127.0.0.1:5432/postgres); the benchmark drops and
 *                       recreates its own database BENCH_DB (default cove_bench_reports)
 *   BENCH_BIG_TICKETS   tickets of the reported organization (105000); BENCH_TICKETS all tickets (BENCH_BIG_TICKETS +
 *                       20000, over BENCH_ORGS organizations, 5)
 *   BENCH_CONCURRENCY   clients (10); BENCH_DURATION seconds per endpoint (15); BENCH_WARMUP seconds (3)
 *   BENCH_REUSE=1       keep an already seeded BENCH_DB of the same size; the app's migrator runs on it first, so
 *                       migrations written since it was seeded apply
 *   BENCH_EXPLAIN=0     skip EXPLAIN (ANALYZE, BUFFERS) of the report's statements
 *   BENCH_CACHE=on      then the report with the answer cache on (as deployed) beside the same loads with it off, each
 *                       with the CPU the app and the database spend per answer: one report asked again and again;
 *                       the same while a writer changes a ticket of the range every second (each change makes the
 *                       next report fresh); and each client asking a report with a filter of its own
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reportQuery } from "@cove/contract/reports.ts";
import pg from "pg";
import { DEFAULT_ANSWER_CACHE_BYTES } from "../apps/api/src/app.ts";
import { buildReport } from "../apps/api/src/modules/reports/reports.service.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";
import { explainAll } from "./explain.ts";
import { cpuSampler, drive, type Endpoint, type LoadResult, table } from "./load.ts";
import { type Run, type SeedPlan, seed, sessionToken } from "./seed.ts";
import type { MemoryMessage, ServerMessage, ServerTarget } from "./server.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

const bigTickets = intFromEnv("BENCH_BIG_TICKETS", 105_000);
const config = {
  adminUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  dbName: process.env.BENCH_DB || "cove_bench_reports",
  bigTickets,
  tickets: intFromEnv("BENCH_TICKETS", bigTickets + 20_000),
  organizations: intFromEnv("BENCH_ORGS", 5),
  concurrency: intFromEnv("BENCH_CONCURRENCY", 10),
  durationMs: intFromEnv("BENCH_DURATION", 15) * 1000,
  warmupMs: intFromEnv("BENCH_WARMUP", 3) * 1000,
  reuse: process.env.BENCH_REUSE === "1",
  explain: process.env.BENCH_EXPLAIN !== "0",
  cache: process.env.BENCH_CACHE === "on",
};
if (!/^[a-z_][a-z0-9_]*$/.test(config.dbName)) throw new Error("BENCH_DB must be a plain lower-case identifier");

const log = (line: string) => console.log(line);
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const day = (d: Date) => d.toISOString().slice(0, 10);
const daysBefore = (n: number) => day(new Date(Date.now() - n * 86_400_000));

/** What the reports read beyond the ticket benchmark's data, for the largest organization (bench-1). */
const extras = (org: string) => [
  // The team's first public reply, as the SLA handler notes it.
  `update tickets t set first_responded_at = x.at
   from (select ticket_id, min(created_at) as at from ticket_comments
         where organization_id = '${org}' and is_public and author_id is not null group by ticket_id) x
   where t.organization_id = '${org}' and t.id = x.ticket_id`,
  `update tickets set first_response_due_at = created_at + interval '4 hours',
                      resolution_due_at = created_at + interval '48 hours'
   where organization_id = '${org}' and priority in ('high', 'urgent')`,
  // One solved ticket in twenty was solved, reopened and solved again before its last solve.
  `insert into ticket_events (organization_id, ticket_id, actor_name, type, from_value, to_value, created_at)
   select organization_id, id, 'Bench', 'status', v.f, v.t, solved_at - v.back
   from tickets cross join (values ('open', 'solved', interval '2 hours'), ('solved', 'open', interval '1 hour')) v(f, t, back)
   where organization_id = '${org}' and status in ('solved', 'closed') and abs(hashtext(id::text)) % 20 = 0`,
  `insert into contacts (organization_id, name, email) values ('${org}', 'Bench customer', 'customer@bench.cove.test')`,
  `insert into csat_surveys (organization_id, ticket_id, contact_id, agent_id, solved_at, expires_at, rating, answered_at)
   select t.organization_id, t.id, c.id, t.assignee_id, t.solved_at, t.solved_at + interval '7 days',
          case when abs(hashtext(t.id::text)) % 10 < 3 then 'good' when abs(hashtext(t.id::text)) % 10 = 3 then 'bad' end,
          case when abs(hashtext(t.id::text)) % 10 < 4 then t.solved_at + interval '1 day' end
   from tickets t cross join (select id from contacts where organization_id = '${org}') c
   where t.organization_id = '${org}' and t.status in ('solved', 'closed')`,
  `insert into chat_sessions (organization_id, contact_id, visitor_name, status, started_at, ended_at, handed_off_at,
                              resolved_by_ai, rating, rated_at, assigned_agent_id)
   select c.organization_id, c.id, 'Visitor ' || g, 'closed', s, s + interval '10 minutes',
          case when g % 10 < 3 then s + interval '2 minutes' end, g % 10 >= 5,
          case when g % 7 = 0 then 'good' when g % 7 = 1 then 'bad' end,
          case when g % 7 < 2 then s + interval '11 minutes' end,
          case when g % 10 < 3 then (select id from users where organization_id = c.organization_id and role = 'agent' order by id limit 1) end
   from (select id, organization_id from contacts where organization_id = '${org}') c
   cross join generate_series(1, 30000) g
   cross join lateral (select now() - interval '365 days' * (g::float8 / 30000)) x(s)`,
  `insert into ai_answers (organization_id, channel, question, confidence, handoff, provider, latency_ms, created_at)
   select '${org}', 'chat', (array['Where is my parcel?', 'Can I pay by invoice?', 'Do you ship to Canada?',
          'How do I return a tent?', 'Is the stove safe indoors?'])[1 + g % 5] || ' ' || (g % 40),
          case when g % 4 = 0 then 0.3 else 0.9 end, g % 6 = 0, 'embedded', 5,
          now() - interval '365 days' * (g::float8 / 20000)
   from generate_series(1, 20000) g`,
  // The seed wrote the tickets with triggers off: their stored business minutes as the migration's backfill works
  // them out (migration *_ticket_business_minutes_trigger.sql).
  `update tickets set first_response_business_minutes = organization_business_minutes(organization_id, created_at, first_responded_at),
                      resolution_business_minutes = organization_business_minutes(organization_id, created_at, solved_at)
   where first_responded_at is not null or solved_at is not null`,
  "vacuum (analyze) tickets",
  "vacuum (analyze) ticket_events",
  "vacuum (analyze) csat_surveys",
  "vacuum (analyze) chat_sessions",
  "vacuum (analyze) ai_answers",
];

async function seeded(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const r = await client.query<{ t: string; s: string }>(
      "select (select count(*) from tickets) as t, (select count(*) from chat_sessions) as s",
    );
    return Number(r.rows[0]?.t) === config.tickets && Number(r.rows[0]?.s) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The app's own migrations, as it runs them at start-up: all of them on a new database, the newer ones on a reused one. */
async function migrate(url: string): Promise<void> {
  const database = await openDatabase({ kind: "postgres", url });
  await database.close();
}

async function seedPostgres(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: config.adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${config.dbName} with (force)`);
    await admin.query(`create database ${config.dbName}`);
  } finally {
    await admin.end();
  }
  await migrate(url);
  const plan: SeedPlan = {
    tickets: config.tickets,
    organizations: config.organizations,
    bigTickets: config.bigTickets,
    bigUsers: 25,
    now: new Date(),
  };
  const clients = Array.from({ length: Math.max(1, os.cpus().length) }, () => new pg.Client({ connectionString: url }));
  const runners: Run[] = [];
  for (const client of clients) {
    await client.connect();
    await client.query("set maintenance_work_mem = '512MB'");
    runners.push(async (statement) => (await client.query<Record<string, unknown>>(statement)).rows);
  }
  try {
    await seed(plan, runners, (line) => log(`  ${line}`));
    const [first] = clients;
    if (!first) throw new Error("no connection");
    const org = (await first.query<{ id: string }>("select id from organizations where slug = 'bench-1'")).rows[0]?.id;
    if (!org) throw new Error("bench-1 is missing");
    await first.query("set session_replication_role = replica");
    for (const statement of extras(org)) {
      const started = performance.now();
      await first.query(statement);
      log(
        `  ${statement.trim().split("\n")[0]?.slice(0, 70)}... (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    await first.query("set session_replication_role = origin");
  } finally {
    for (const client of clients) await client.end();
  }
}

function startServer(target: ServerTarget) {
  const child = fork(path.join(here, "server.ts"), [], {
    // --expose-gc: the CSV's memory is sampled after a full collection (collected()).
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, NODE_ENV: "production", BENCH_SERVER: JSON.stringify(target) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise<{ child: ChildProcess; ready: Extract<ServerMessage, { type: "ready" }> }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the app process exited (${code}) before it was ready`)));
    child.on("message", (message: ServerMessage | MemoryMessage) => {
      if (message.type === "ready") resolve({ child, ready: message });
      else if (message.type === "failed") reject(new Error(`the app process failed:\n${message.error}`));
    });
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.send("stop");
  });
}

/** A process's resident memory in MiB, from /proc (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

interface Download {
  rows: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  rssBefore: number;
  rssPeak: number;
  /** The app's memory after a full collection, MiB: before the download, and the most of the samples during it. */
  heapBefore: number;
  heapPeak: number;
  rssCollectedPeak: number;
  samples: number;
}

const MiB = 2 ** 20;

/** The app process's memory right after a full collection (it runs with --expose-gc). */
function collected(child: ChildProcess): Promise<MemoryMessage> {
  return new Promise((resolve) => {
    const onMessage = (message: ServerMessage | MemoryMessage) => {
      if (message.type !== "memory") return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.send("gc");
  });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/**
 * Downloads a CSV, timing its first byte and its end; samples the app's resident memory every 20 ms meanwhile, and
 * every second its heap and resident memory right after a full collection (what the stream holds, not garbage; each
 * collection pauses the app, so these downloads take longer than without).
 */
async function download(port: number, pathname: string, child: ChildProcess): Promise<Download> {
  const pid = child.pid ?? 0;
  const before = await collected(child);
  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  let heapPeak = before.heapUsed;
  let rssCollectedPeak = before.rss;
  let samples = 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
  }, 20);
  let sampling = false;
  const gcSampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void collected(child).then((m) => {
      heapPeak = Math.max(heapPeak, m.heapUsed);
      rssCollectedPeak = Math.max(rssCollectedPeak, m.rss);
      samples++;
      sampling = false;
    });
  }, 1000);
  const stop = () => {
    clearInterval(sampler);
    clearInterval(gcSampler);
  };
  const started = performance.now();
  const memory = () => ({
    heapBefore: before.heapUsed / MiB,
    heapPeak: heapPeak / MiB,
    rssCollectedPeak: rssCollectedPeak / MiB,
    samples,
  });
  return new Promise<Download>((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: pathname, headers: { authorization: `Bearer ${sessionToken(1)}` } },
      (res) => {
        let firstByteMs = Number.NaN;
        let bytes = 0;
        let lines = 0;
        res.on("data", (chunk: Buffer) => {
          if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (const b of chunk) if (b === 10) lines++;
        });
        res.on("end", () => {
          stop();
          if (res.statusCode !== 200) return reject(new Error(`${pathname} answered ${res.statusCode}`));
          const totalMs = performance.now() - started;
          resolve({ rows: lines - 1, bytes, firstByteMs, totalMs, rssBefore, rssPeak, ...memory() });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/**
 * A member at work beside the readers: every second a ticket of the range changes priority (PUT, as the app sends it),
 * which bumps the organization's data version, so the next report is computed afresh. Returns the function that stops
 * it.
 */
function changeTickets(port: number, ticketIds: string[]): () => Promise<void> {
  let stopped = false;
  let n = 0;
  const running = (async () => {
    while (!stopped) {
      const res = await fetch(`http://127.0.0.1:${port}/api/tickets/${ticketIds[n % ticketIds.length]}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${sessionToken(1)}`, "content-type": "application/json" },
        body: JSON.stringify({ priority: n % 2 === 0 ? "high" : "normal" }),
      });
      if (!res.ok) throw new Error(`changing a ticket answered ${res.status}: ${await res.text()}`);
      n++;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return async () => {
    stopped = true;
    await running;
  };
}

/** The loads BENCH_CACHE=on runs with the answer cache off and on. */
function cacheLoads(range90: string, ticketIds: string[]): Endpoint[] {
  const report = (more = "") => ({ path: `/api/reports?${range90}${more}`, token: sessionToken(1) });
  const filters = [
    ...["web", "email", "chat", "portal", "api"].map((c) => `&channel=${c}`),
    ...["low", "normal", "high", "urgent"].map((p) => `&priority=${p}`),
    "&group=week",
  ];
  return [
    { name: "report, 90 days, asked again", calls: [report()] },
    {
      name: "report, 90 days, a ticket changed every second",
      calls: [report()],
      alongside: (port) => changeTickets(port, ticketIds),
    },
    { name: "report, 90 days, a filter per client", calls: filters.map(report) },
  ];
}

/** BENCH_CACHE=on: runs cacheLoads against the app with the answer cache off and then on, and prints them together. */
async function compareCache(url: string, range90: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const org = (await admin.query<{ id: string }>("select id from organizations where slug = 'bench-1'")).rows[0]?.id;
    const tickets = await admin.query<{ id: string }>(
      `select id from tickets where organization_id = $1 and created_at > now() - interval '80 days'
       order by ticket_number limit 20`,
      [org],
    );
    const loads = cacheLoads(
      range90,
      tickets.rows.map((r) => r.id),
    );
    const results: LoadResult[] = [];
    for (const mode of ["off", "on"] as const) {
      const answerCacheBytes = mode === "on" ? DEFAULT_ANSWER_CACHE_BYTES : 0;
      const { child, ready } = await startServer({ kind: "postgres", url, answerCacheBytes });
      try {
        for (const load of loads) {
          const stop = load.alongside?.(ready.port);
          const result = await drive(load, {
            port: ready.port,
            concurrency: config.concurrency,
            warmupMs: config.warmupMs,
            durationMs: config.durationMs,
            cpu: cpuSampler(child.pid ?? 0, admin, config.dbName),
          }).finally(() => stop?.());
          result.name = `cache ${mode}: ${result.name}`;
          log(
            `  ${result.name}: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms (load average ${loadAverage()})`,
          );
          results.push(result);
        }
      } finally {
        await stopServer(child);
      }
    }
    log(`
${table(results, ["app", "database"])}`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  log(`machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
  log(
    `node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const url = withDatabase(config.adminUrl, config.dbName);
  log(
    `\n== PostgreSQL: ${config.tickets} tickets, ${config.organizations} organizations, reported one ${config.bigTickets}`,
  );
  if (config.reuse && (await seeded(url))) {
    await migrate(url);
    log(`  reusing ${config.dbName} (migrated)`);
  } else {
    const started = performance.now();
    await seedPostgres(url);
    log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }

  const { child, ready } = await startServer({ kind: "postgres", url, answerCacheBytes: 0 });
  try {
    const range90 = `from=${daysBefore(89)}&to=${daysBefore(0)}`;
    if (config.explain) {
      const explained = await explainAll(url, { orgId: ready.orgId, userId: ready.adminId }, [
        {
          name: "report, 90 days by day",
          run: (ctx) => buildReport(ctx, reportQuery.parse({ from: daysBefore(89), to: daysBefore(0) })),
        },
      ]);
      log(`\n-- EXPLAIN (ANALYZE, BUFFERS) of the report's statements, warm cache:\n\n${explained}`);
    }
    const big = (p: string) => ({ path: p, token: sessionToken(1) });
    const endpoints: Endpoint[] = [
      { name: "report, 90 days by day", calls: [big(`/api/reports?${range90}`)] },
      { name: "report, 90 days by week", calls: [big(`/api/reports?${range90}&group=week`)] },
      { name: "report, 90 days, priority=high", calls: [big(`/api/reports?${range90}&priority=high`)] },
      { name: "report, 90 days, one client", calls: [big(`/api/reports?${range90}`)], concurrency: 1 },
      {
        name: "report, 365 days by month",
        calls: [big(`/api/reports?from=${daysBefore(364)}&to=${daysBefore(0)}&group=month`)],
      },
    ];
    log(
      `\n-- load: ${config.concurrency} clients, ${config.warmupMs / 1000} s warm-up + ${config.durationMs / 1000} s each`,
    );
    const results: LoadResult[] = [];
    for (const endpoint of endpoints) {
      const result = await drive(endpoint, {
        port: ready.port,
        concurrency: endpoint.concurrency ?? config.concurrency,
        warmupMs: config.warmupMs,
        durationMs: config.durationMs,
      });
      log(
        `  ${endpoint.name}: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms (load average ${loadAverage()})`,
      );
      results.push(result);
    }
    log(`\n${table(results)}`);

    log("\n-- tickets.csv, one download at a time (app process memory sampled every 20 ms)");
    const downloads: [string, string][] = [
      ["speed.csv, 90 days", `/api/reports/speed.csv?${range90}`],
      ["36 days", `/api/reports/tickets.csv?from=${daysBefore(35)}&to=${daysBefore(0)}`],
      ["365 days", `/api/reports/tickets.csv?from=${daysBefore(364)}&to=${daysBefore(0)}`],
      ["365 days, again", `/api/reports/tickets.csv?from=${daysBefore(364)}&to=${daysBefore(0)}`],
    ];
    log(
      "| download | rows | MB | first byte ms | total ms | app RSS before MiB | app RSS peak MiB | heap after GC before MiB | heap after GC peak MiB | RSS after GC peak MiB | GC samples | load average |",
    );
    log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const [name, pathname] of downloads) {
      const d = await download(ready.port, pathname, child);
      log(
        `| ${name} | ${d.rows} | ${(d.bytes / 1e6).toFixed(1)} | ${d.firstByteMs.toFixed(0)} | ${d.totalMs.toFixed(0)} | ${d.rssBefore.toFixed(0)} | ${d.rssPeak.toFixed(0)} | ${d.heapBefore.toFixed(1)} | ${d.heapPeak.toFixed(1)} | ${d.rssCollectedPeak.toFixed(0)} | ${d.samples} | ${loadAverage()} |`,
      );
    }
  } finally {
    await stopServer(child);
  }
  if (config.cache) {
    log(
      `\n-- answer cache off and on: ${config.concurrency} clients, ${config.warmupMs / 1000} s warm-up + ${config.durationMs / 1000} s each`,
    );
    await compareCache(url, `from=${daysBefore(89)}&to=${daysBefore(0)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
