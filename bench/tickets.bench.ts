/**
 * npm run bench:tickets: seeds PostgreSQL with 1,000,000 tickets over 1,000 organizations (the largest 100,000, with
 * comments), drives the real app over HTTP with 50 concurrent clients and prints requests/s and latency per endpoint;
 * then the same against the embedded database (PGlite) at 100,000 tickets. It measures and prints; it asserts nothing.
 * Beside each row's figures it prints the CPU a request cost the app and PostgreSQL (from /proc, after the warm-up):
 * on a machine shared with other work, requests a second move with the neighbours, CPU per request far less.
 *
 * Environment (all optional):
 *   DATABASE_URL            admin connection of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
 *                           the benchmark drops and recreates its own database on it (BENCH_DB, default cove_bench)
 *   BENCH_TARGETS           postgres,embedded (default both)
 *   BENCH_TICKETS           tickets in PostgreSQL (1000000); BENCH_ORGS organizations (1000);
 *   BENCH_BIG_TICKETS       tickets of the largest organization (BENCH_TICKETS / 10)
 *   BENCH_EMBEDDED_TICKETS  tickets in the embedded database, one organization (100000)
 *   BENCH_CONCURRENCY       clients (50); BENCH_DURATION seconds measured per endpoint (10); BENCH_WARMUP seconds (2)
 *   BENCH_DEEP_PAGE         the deep page of the list rows (default: a tenth of the way into the largest organization)
 *   BENCH_REUSE=1           keep an already seeded BENCH_DB of the same size instead of seeding again; the app's
 *                           migrator runs on it first, so migrations written since it was seeded apply
 *   BENCH_EXPLAIN=0         skip EXPLAIN (ANALYZE, BUFFERS) of the app's queries
 *   BENCH_ONLY              a regular expression: drive only the endpoints whose name matches (e.g. "search|stats")
 *   BENCH_CACHE             on,off (default both): run the app with its answer cache (as deployed), then without it,
 *                           so that every request does the full work
 *   BENCH_APP_NODE_ARGS     extra Node options for the app's process, space-separated (e.g. "--cpu-prof
 *                           --cpu-prof-dir=/tmp/prof": a CPU profile of the app, written when it exits)
 * Flag --quick: 20,000 tickets over 20 organizations, 5,000 embedded, 3 s per endpoint (a check that everything runs).
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ticketListQuery } from "@cove/contract/tickets.ts";
import pg from "pg";
import { DEFAULT_ANSWER_CACHE_BYTES } from "../apps/api/src/app.ts";
import { listTickets } from "../apps/api/src/modules/tickets/tickets.list.ts";
import { getTicket } from "../apps/api/src/modules/tickets/tickets.service.ts";
import { ticketStats } from "../apps/api/src/modules/tickets/tickets.stats.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";
import type { Ctx } from "../apps/api/src/platform/tenancy.ts";
import { type ExplainCase, explainAll } from "./explain.ts";
import { cpuSampler, drive, type Endpoint, type LoadResult, table } from "./load.ts";
import { type Run, type SeedPlan, seed, sessionToken } from "./seed.ts";
import type { ServerMessage, ServerTarget } from "./server.ts";
import { FIRST_NAMES, LAST_NAMES, PRODUCTS, VOCABULARY } from "./words.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes("--quick");

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

const tickets = intFromEnv("BENCH_TICKETS", quick ? 20_000 : 1_000_000);
const config = {
  adminUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  dbName: process.env.BENCH_DB || "cove_bench",
  targets: (process.env.BENCH_TARGETS || "postgres,embedded").split(",").map((t) => t.trim()),
  tickets,
  organizations: intFromEnv("BENCH_ORGS", quick ? 20 : 1_000),
  bigTickets: intFromEnv("BENCH_BIG_TICKETS", Math.round(tickets / 10)),
  embeddedTickets: intFromEnv("BENCH_EMBEDDED_TICKETS", quick ? 5_000 : 100_000),
  concurrency: intFromEnv("BENCH_CONCURRENCY", 50),
  durationMs: intFromEnv("BENCH_DURATION", quick ? 3 : 10) * 1000,
  warmupMs: intFromEnv("BENCH_WARMUP", quick ? 1 : 2) * 1000,
  reuse: process.env.BENCH_REUSE === "1",
  explain: process.env.BENCH_EXPLAIN !== "0",
  only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null,
  seedConnections: Math.max(1, os.cpus().length),
  appNodeArgs: (process.env.BENCH_APP_NODE_ARGS ?? "").split(" ").filter(Boolean),
  cacheModes: (process.env.BENCH_CACHE || "on,off").split(",").map((m) => {
    if (m.trim() !== "on" && m.trim() !== "off") throw new Error(`BENCH_CACHE takes on, off or on,off; got ${m}`);
    return m.trim() as CacheMode;
  }),
};
type CacheMode = "on" | "off";
/** The app's default budget, as deployed; "off" is a budget of 0. */
const cacheBytes = (mode: CacheMode) => (mode === "on" ? DEFAULT_ANSWER_CACHE_BYTES : 0);
if (config.bigTickets > config.tickets) throw new Error("BENCH_BIG_TICKETS cannot exceed BENCH_TICKETS");
if (!/^[a-z_][a-z0-9_]*$/.test(config.dbName)) throw new Error("BENCH_DB must be a plain lower-case identifier");

/** Search terms as an agent types them: a common word, two words, a prefix of the last word, a name, a number. */
const SEARCHES = ["refund", "tent zipper", "warehou", "Nakamura", "charged twice"];

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (line: string) => console.log(line);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function machine(pgUrl: string | null): Promise<void> {
  const cpus = os.cpus();
  log(`machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
  log(`node ${process.version}, ${os.type()} ${os.release()}, load average ${loadAverage()}`);
  if (!pgUrl) return;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const version = await client.query<{ v: string }>("select version() as v");
    const settings = await client.query<{ name: string; value: string }>(
      `select name, current_setting(name) as value from pg_settings where name in ('shared_buffers', 'work_mem',
       'effective_cache_size', 'max_parallel_workers_per_gather', 'jit', 'random_page_cost', 'synchronous_commit')
       order by name`,
    );
    log(`postgres: ${version.rows[0]?.v ?? "?"}`);
    log(`  ${settings.rows.map((s) => `${s.name}=${s.value}`).join(", ")}`);
    log(`  ${hugePages()}`);
  } finally {
    await client.end();
  }
}

/**
 * Terms as different agents type them, one per request: names, words of the tickets and their prefixes, and pairs,
 * more of them than a run sends, so that (cache on or off) every one is searched afresh. A fixed order, so every run
 * asks the same.
 */
function variedSearches(): string[] {
  const words = [...FIRST_NAMES, ...LAST_NAMES, ...VOCABULARY, ...PRODUCTS];
  const singles = words.flatMap((w) => (w.length > 5 ? [w, w.slice(0, w.length - 2)] : [w]));
  const pairs = PRODUCTS.flatMap((p) => VOCABULARY.map((v) => `${p} ${v}`));
  const all = [...singles, ...pairs];
  // A fixed shuffle (a multiplicative step through the list), so singles and pairs alternate.
  const step = 7919;
  return all.map((_, i) => all[(i * step) % all.length] as string);
}

/**
 * Whether the machine has huge pages for PostgreSQL's shared memory: without them every database process maps each
 * 8 kB page of shared_buffers it touches on its own (a page fault each), which costs searches over many tickets most
 * of their time under concurrency on this VM (docs/benchmarks.md).
 */
function hugePages(): string {
  try {
    const info = readFileSync("/proc/meminfo", "utf8");
    const value = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(info)?.[1] ?? 0);
    const total = value("HugePages_Total");
    if (total === 0) return "huge pages: none reserved (vm.nr_hugepages=0)";
    return `huge pages: ${total} reserved, ${total - value("HugePages_Free") + value("HugePages_Rsvd")} in use`;
  } catch {
    return "huge pages: unknown";
  }
}

/** A page a tenth of the way into the largest organization's list, or BENCH_DEEP_PAGE. */
const deepPageOf = (bigTickets: number) => intFromEnv("BENCH_DEEP_PAGE", Math.max(2, Math.floor(bigTickets / 25 / 10)));
/** The search terms, with a ticket number ("#123" finds ticket 123) of the largest organization last. */
const searchesOf = (bigTickets: number) => [...SEARCHES, `#${Math.max(1, Math.floor(bigTickets * 0.4242))}`];

function endpoints(opts: {
  bigToken: string;
  bigTickets: number;
  ticketIds: string[];
  smallTokens: string[];
}): Endpoint[] {
  const big = (p: string) => ({ path: p, token: opts.bigToken });
  const deepPage = deepPageOf(opts.bigTickets);
  const list: Endpoint[] = [
    // The floor: the HTTP stack and one database round trip, no session lookup and no tenant transaction.
    { name: "baseline GET /api/health", calls: [big("/api/health")] },
    { name: "list, page 1", calls: [big("/api/tickets")] },
    { name: `list, page ${deepPage}`, calls: [big(`/api/tickets?page=${deepPage}`)] },
    { name: "filter status=open&priority=high", calls: [big("/api/tickets?status=open&priority=high")] },
    { name: "filter assignee_id=unassigned", calls: [big("/api/tickets?assignee_id=unassigned")] },
    ...searchesOf(opts.bigTickets).map((term) => ({
      name: `search "${term}"`,
      calls: [big(`/api/tickets?search=${encodeURIComponent(term)}`)],
    })),
    {
      name: "search, a different term each time",
      calls: variedSearches().map((term) => big(`/api/tickets?search=${encodeURIComponent(term)}`)),
    },
    {
      name: "search, a different term each time, one client",
      calls: variedSearches()
        .reverse()
        .map((term) => big(`/api/tickets?search=${encodeURIComponent(term)}`)),
      concurrency: 1,
    },
    { name: "detail /tickets/:id", calls: opts.ticketIds.map((id) => big(`/api/tickets/${id}`)) },
    { name: "stats/overview", calls: [big("/api/tickets/stats/overview")] },
    {
      name: "list, page 1, while a ticket changes 10 times a second",
      calls: [big("/api/tickets")],
      alongside: (port) => changeTickets(port, opts.bigToken, opts.ticketIds),
    },
  ];
  if (opts.smallTokens.length > 0) {
    list.push({
      name: `list, page 1, ${opts.smallTokens.length} small orgs`,
      calls: opts.smallTokens.map((token) => ({ path: "/api/tickets", token })),
    });
  }
  return list;
}

/**
 * An agent at work beside the readers: every 100 ms a ticket's priority changes (PUT, as the app sends it), so a
 * cached list is out of date ten times a second and the next reader recomputes it. Returns the function that stops it.
 */
function changeTickets(port: number, token: string, ticketIds: string[]): () => Promise<void> {
  let stopped = false;
  let n = 0;
  const running = (async () => {
    while (!stopped) {
      const id = ticketIds[n % ticketIds.length];
      const res = await fetch(`http://127.0.0.1:${port}/api/tickets/${id}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ priority: n % 2 === 0 ? "high" : "normal" }),
      });
      if (!res.ok) throw new Error(`changing a ticket answered ${res.status}: ${await res.text()}`);
      n++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return async () => {
    stopped = true;
    await running;
  };
}

function startServer(
  target: ServerTarget,
): Promise<{ child: ChildProcess; ready: Extract<ServerMessage, { type: "ready" }> }> {
  const child = fork(path.join(here, "server.ts"), [], {
    execArgv: ["--import", "tsx", ...config.appNodeArgs],
    env: { ...process.env, NODE_ENV: "production", BENCH_SERVER: JSON.stringify(target) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the app process exited (${code}) before it was ready`)));
    child.on("message", (message: ServerMessage) => {
      if (message.type === "ready") resolve({ child, ready: message });
      else reject(new Error(`the app process failed:\n${message.error}`));
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

async function runLoad(port: number, list: Endpoint[], cpu?: () => Promise<number[]>): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const endpoint of list.filter((e) => !config.only || config.only.test(e.name))) {
    const stop = endpoint.alongside?.(port);
    const result = await drive(endpoint, {
      port,
      concurrency: endpoint.concurrency ?? config.concurrency,
      warmupMs: config.warmupMs,
      durationMs: config.durationMs,
      cpu,
    }).finally(() => stop?.());
    // The machine's load average tells whether something else was competing for the CPU during the run.
    const cpuNote = result.cpuPerRequest
      ? `, CPU ${result.cpuPerRequest.map((ms) => ms.toFixed(2)).join(" + ")} ms/req`
      : "";
    log(
      `  ${endpoint.name}: ${result.perSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms${cpuNote} (${elapsed()}, load ${loadAverage()})`,
    );
    results.push(result);
  }
  return results;
}

async function seededAlready(url: string, plan: SeedPlan): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    const r = await client.query<{ t: string; o: string }>(
      "select (select count(*) from tickets) as t, (select count(*) from organizations) as o",
    );
    return Number(r.rows[0]?.t) === plan.tickets && Number(r.rows[0]?.o) === plan.organizations;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

/** The app's own migrations, as it runs them at start-up: all of them on a new database, the newer ones on a reused one. */
async function migrate(url: string): Promise<void> {
  const database = await openDatabase({ kind: "postgres", url });
  await database.close();
}

async function seedPostgres(url: string, plan: SeedPlan): Promise<void> {
  const admin = new pg.Client({ connectionString: config.adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${config.dbName} with (force)`);
    await admin.query(`create database ${config.dbName}`);
  } finally {
    await admin.end();
  }
  await migrate(url);

  const clients = Array.from({ length: config.seedConnections }, () => new pg.Client({ connectionString: url }));
  const runners: Run[] = [];
  for (const client of clients) {
    await client.connect();
    await client.query("set maintenance_work_mem = '512MB'");
    runners.push(async (statement) => (await client.query<Record<string, unknown>>(statement)).rows);
  }
  try {
    await seed(plan, runners, (line) => log(`  ${line}`));
  } finally {
    for (const client of clients) await client.end();
  }
}

async function benchPostgres(): Promise<ModeResults[]> {
  const url = withDatabase(config.adminUrl, config.dbName);
  const plan: SeedPlan = {
    tickets: config.tickets,
    organizations: config.organizations,
    bigTickets: config.bigTickets,
    bigUsers: 25,
    now: new Date(),
  };
  log(`\n== PostgreSQL: ${plan.tickets} tickets, ${plan.organizations} organizations, largest ${plan.bigTickets}`);
  if (config.reuse && (await seededAlready(url, plan))) {
    await migrate(url);
    log(`  reusing the seeded database ${config.dbName} (migrated)`);
  } else {
    const seedStarted = performance.now();
    await seedPostgres(url, plan);
    log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
  }

  const runs: ModeResults[] = [];
  for (const mode of config.cacheModes) {
    const { child, ready } = await startServer({ kind: "postgres", url, answerCacheBytes: cacheBytes(mode) });
    try {
      if (config.explain && runs.length === 0) log(await explainPostgres(url, plan, ready));
      log(`\n-- load, answer cache ${mode}: ${loadShape()}`);
      const smallOrgs = Math.min(100, config.organizations - 1);
      const list = endpoints({
        bigToken: sessionToken(1),
        bigTickets: plan.bigTickets,
        ticketIds: ready.ticketIds,
        smallTokens: Array.from({ length: smallOrgs }, (_, i) => sessionToken(i + 2)),
      });
      const admin = new pg.Client({ connectionString: config.adminUrl });
      await admin.connect();
      try {
        runs.push({ mode, results: await runLoad(ready.port, list, cpuSampler(child.pid ?? 0, admin, config.dbName)) });
      } finally {
        await admin.end();
      }
    } finally {
      await stopServer(child);
    }
  }
  return runs;
}

/** The CPU columns of each target's table: PGlite runs inside the app's process. */
const POSTGRES_CPU = ["app", "PostgreSQL"];
const EMBEDDED_CPU = ["app with PGlite"];

interface ModeResults {
  mode: CacheMode;
  results: LoadResult[];
}

const loadShape = () =>
  `${config.concurrency} clients, ${config.warmupMs / 1000} s warm-up + ${config.durationMs / 1000} s per endpoint`;

async function explainPostgres(
  url: string,
  plan: SeedPlan,
  ready: Extract<ServerMessage, { type: "ready" }>,
): Promise<string> {
  const deepPage = deepPageOf(plan.bigTickets);
  const cases: ExplainCase[] = [
    { name: "list, page 1", run: (ctx) => listTickets(ctx, ticketListQuery.parse({})) },
    { name: `list, page ${deepPage}`, run: (ctx) => listTickets(ctx, ticketListQuery.parse({ page: deepPage })) },
    {
      name: "filter status=open&priority=high",
      run: (ctx) => listTickets(ctx, ticketListQuery.parse({ status: "open", priority: "high" })),
    },
    {
      name: "filter assignee_id=unassigned",
      run: (ctx) => listTickets(ctx, ticketListQuery.parse({ assignee_id: "unassigned" })),
    },
    ...searchesOf(plan.bigTickets).map((term) => ({
      name: `search "${term}"`,
      run: (ctx: Ctx) => listTickets(ctx, ticketListQuery.parse({ search: term })),
    })),
    { name: "stats/overview", run: ticketStats },
    { name: "detail", run: (ctx) => getTicket(ctx, ready.ticketIds[0] ?? "") },
  ];
  const explained = await explainAll(url, { orgId: ready.orgId, userId: ready.adminId }, cases);
  return `\n-- EXPLAIN (ANALYZE, BUFFERS) of the app's statements, largest organization, warm cache:\n\n${explained}`;
}

async function benchEmbedded(): Promise<ModeResults[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cove-bench-pglite-"));
  const plan = {
    tickets: config.embeddedTickets,
    organizations: 1,
    bigTickets: config.embeddedTickets,
    bigUsers: 25,
    now: new Date().toISOString(),
  };
  log(`\n== Embedded (PGlite in ${dir}): ${plan.tickets} tickets in one organization`);
  const runs: ModeResults[] = [];
  try {
    for (const mode of config.cacheModes) {
      // The first app process seeds the database; the next one opens it as it is.
      const target = { kind: "embedded", dir: path.join(dir, "db"), plan, answerCacheBytes: cacheBytes(mode) } as const;
      const { child, ready } = await startServer(target);
      try {
        if (ready.seedSeconds !== null) log(`  seeded in ${ready.seedSeconds.toFixed(0)} s`);
        log(`\n-- load, answer cache ${mode}: ${loadShape()}`);
        const list = endpoints({
          bigToken: sessionToken(1),
          bigTickets: plan.bigTickets,
          ticketIds: ready.ticketIds,
          smallTokens: [],
        });
        runs.push({ mode, results: await runLoad(ready.port, list, cpuSampler(child.pid ?? 0, null, config.dbName)) });
      } finally {
        await stopServer(child);
      }
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cacheLabel = (mode: CacheMode) =>
  mode === "on" ? "answer cache on, as deployed" : "answer cache off: every request does the full work";

async function main(): Promise<void> {
  const wantPostgres = config.targets.includes("postgres");
  await machine(wantPostgres ? config.adminUrl : null);
  const tables: string[] = [];
  if (wantPostgres) {
    for (const run of await benchPostgres()) {
      tables.push(
        `PostgreSQL, ${config.tickets} tickets / ${config.organizations} organizations, largest organization ${config.bigTickets} (${config.concurrency} clients, ${cacheLabel(run.mode)}):\n${table(run.results, POSTGRES_CPU)}`,
      );
    }
  }
  if (config.targets.includes("embedded")) {
    for (const run of await benchEmbedded()) {
      tables.push(
        `Embedded (PGlite), ${config.embeddedTickets} tickets in one organization (${config.concurrency} clients, ${cacheLabel(run.mode)}):\n${table(run.results, EMBEDDED_CPU)}`,
      );
    }
  }
  log(`\n== Results (${elapsed()} in all, load average now ${loadAverage()})\n`);
  log(tables.join("\n\n"));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
