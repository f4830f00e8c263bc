/**
 * npm run stress: a busy help desk on PostgreSQL for a few minutes. Agents of several organizations read lists,
 * tickets, searches and the dashboard, and create, update and reply to tickets, all at once, while each organization's
 * admin keeps inviting, deactivating, reactivating and changing the role of members. It prints the requests, the
 * answers by status per operation (anything but the expected status is an error), p50 and p99 latency per operation,
 * whether every deactivation ended the member's access at once, and the server's memory (RSS) from start to end.
 * It measures and prints; it asserts nothing (docs/benchmarks.md has the figures).
 *
 * Environment (all optional):
 *   DATABASE_URL     admin connection of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
 *                    the run drops and recreates its own database on it (STRESS_DB, default cove_stress)
 *   STRESS_CLIENTS   agents sending requests at once (50); STRESS_ORGS organizations they belong to (5)
 *   STRESS_DURATION  seconds of load (180); STRESS_TICKETS tickets each organization starts with (200)
 * Flag --quick: 30 seconds.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { percentile } from "./load.ts";
import type { MemorySample, StressServerConfig, StressServerMessage } from "./stress-server.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes("--quick");

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
}

const config = {
  adminUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  dbName: process.env.STRESS_DB || "cove_stress",
  clients: intFromEnv("STRESS_CLIENTS", 50),
  organizations: intFromEnv("STRESS_ORGS", 5),
  durationMs: intFromEnv("STRESS_DURATION", quick ? 30 : 180) * 1000,
  tickets: intFromEnv("STRESS_TICKETS", quick ? 60 : 200),
};
if (!/^[a-z_][a-z0-9_]*$/.test(config.dbName)) throw new Error("STRESS_DB must be a plain lower-case identifier");

/** Members per organization whose access the admin keeps switching off and on; they send no load of their own. */
const CHURNED = 2;
const PASSWORD = "stress test password";

// HTTP ---------------------------------------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
let port = 0;

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One request. Each simulated person has an address of their own (the server trusts X-Forwarded-For, as behind a proxy). */
function request(
  method: string,
  url: string,
  who: { token?: string; address: string },
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = { "x-forwarded-for": who.address };
    if (who.token) headers.authorization = `Bearer ${who.token}`;
    if (payload) {
      headers["content-type"] = "application/json";
      headers["content-length"] = payload.length;
    }
    const started = performance.now();
    const req = http.request({ agent, host: "127.0.0.1", port, method, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

async function must(method: string, url: string, who: { token?: string; address: string }, body?: unknown) {
  const res = await request(method, url, who, body);
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

let addresses = 0;
const newAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

// Statistics ---------------------------------------------------------------------------------------------------------

interface OpStats {
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  firstError?: string;
}
const stats = new Map<string, OpStats>();

function record(op: string, res: Answer, expected: number[]): void {
  let s = stats.get(op);
  if (!s) {
    s = { latencies: [], statuses: new Map(), errors: 0 };
    stats.set(op, s);
  }
  s.latencies.push(res.ms);
  s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1);
  if (!expected.includes(res.status)) {
    s.errors++;
    s.firstError ??= `${res.status} ${res.body.slice(0, 200)}`;
  }
}

/** The server's memory, asked over IPC: its RSS (from the kernel), V8's heap in use, and the answer cache's bytes. */
function memoryOf(server: ChildProcess): Promise<MemorySample> {
  return new Promise((resolve) => {
    const onMessage = (message: StressServerMessage) => {
      if (message.type !== "memory") return;
      server.off("message", onMessage);
      resolve(message.sample);
    };
    server.on("message", onMessage);
    server.send("memory");
  });
}

// Setup --------------------------------------------------------------------------------------------------------------

async function recreateDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: config.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${config.dbName} with (force)`);
  await admin.query(`create database ${config.dbName}`);
  await admin.end();
  const url = new URL(config.adminUrl);
  url.pathname = `/${config.dbName}`;
  return url.toString();
}

function startServer(serverConfig: StressServerConfig): Promise<ChildProcess> {
  const child = fork(path.join(here, "stress-server.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, STRESS_SERVER: JSON.stringify(serverConfig) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.on("message", (message: StressServerMessage) => {
      if (message.type === "ready") {
        port = message.port;
        resolve(child);
      } else if (message.type === "failed") reject(new Error(`the server failed to start:\n${message.error}`));
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** The invitation link's token for email, from the outbox (the server has no SMTP server). */
async function invitationToken(outboxDir: string, email: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const file of readdirSync(outboxDir).filter((f) => f.endsWith(".eml"))) {
      const text = readFileSync(path.join(outboxDir, file), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      if (!text.includes(`To: ${email}`)) continue;
      const token = /accept-invite\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
      if (token) {
        rmSync(path.join(outboxDir, file));
        return token;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no invitation mail for ${email}`);
}

interface Person {
  id: string;
  email: string;
  token: string;
  address: string;
}
interface Org {
  admin: Person;
  agents: Person[];
  churned: Person[];
  ticketIds: string[];
}

async function joinedMember(org: { admin: Person }, outboxDir: string, n: number): Promise<Person> {
  const email = `agent-${n}-${Date.now().toString(36)}@stress.example`;
  const invited = await must("POST", "/api/users/invite", org.admin, {
    email,
    firstName: "Agent",
    lastName: `No ${n}`,
  });
  const token = await invitationToken(outboxDir, email);
  const address = newAddress();
  const accepted = await must(
    "POST",
    "/api/auth/accept-invite",
    { address },
    {
      token,
      firstName: "Agent",
      lastName: `No ${n}`,
      password: PASSWORD,
    },
  );
  return { id: (invited.user as { id: string }).id, email, token: String(accepted.token), address };
}

async function setUp(url: string, outboxDir: string): Promise<Org[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const orgs: Org[] = [];
  let member = 0;
  for (let o = 0; o < config.organizations; o++) {
    const address = newAddress();
    const email = `admin-${o}@stress.example`;
    const reg = await must(
      "POST",
      "/api/auth/register",
      { address },
      {
        organizationName: `Stress Outfitters ${o}`,
        firstName: "Ada",
        lastName: "Admin",
        email,
        password: PASSWORD,
      },
    );
    const user = reg.user as { id: string; organizationId: string };
    // Seats are not what this measures: every organization is on the plan without a member limit.
    await db.query("update organizations set plan = 'business', subscription_status = 'active' where id = $1", [
      user.organizationId,
    ]);
    const org: Org = {
      admin: { id: user.id, email, token: String(reg.token), address },
      agents: [],
      churned: [],
      ticketIds: [],
    };
    const agents = Math.ceil(config.clients / config.organizations);
    for (let i = 0; i < agents; i++) org.agents.push(await joinedMember(org, outboxDir, member++));
    for (let i = 0; i < CHURNED; i++) org.churned.push(await joinedMember(org, outboxDir, member++));
    for (let i = 0; i < config.tickets; i++) {
      const created = await must("POST", "/api/tickets", org.admin, newTicket(i));
      org.ticketIds.push((created.ticket as { id: string }).id);
    }
    orgs.push(org);
    process.stdout.write(`  organization ${o + 1}/${config.organizations} ready\n`);
  }
  await db.end();
  return orgs;
}

// Load ---------------------------------------------------------------------------------------------------------------

const WORDS = ["refund", "zipper", "tent", "order", "delivery", "broken", "invoice", "warranty"];
const STATUSES = ["open", "pending", "solved", "closed"];
const PRIORITIES = ["low", "normal", "high", "urgent"];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

const newTicket = (i: number) => ({
  subject: `My ${pick(WORDS)} is not right (${i})`,
  description: `Hello, the ${pick(WORDS)} I got last week has a problem. Order ${1000 + i}.`,
  priority: pick(PRIORITIES),
  requester_name: "Rosa Diaz",
  requester_email: `rosa-${i}@example.com`,
});

/** An agent's next request, by weight: mostly reads, a third writes. */
async function agentStep(org: Org, me: Person): Promise<void> {
  const r = Math.random();
  const ticket = pick(org.ticketIds);
  if (r < 0.22) {
    const query = pick(["", "?status=open", "?page=2", "?assignee_id=me", "?priority=high&status=pending"]);
    record("read: ticket list", await request("GET", `/api/tickets${query}`, me), [200]);
  } else if (r < 0.37) {
    record("read: ticket", await request("GET", `/api/tickets/${ticket}`, me), [200]);
  } else if (r < 0.45) {
    record("read: search", await request("GET", `/api/tickets?search=${pick(WORDS)}`, me), [200]);
  } else if (r < 0.5) {
    record("read: dashboard", await request("GET", "/api/tickets/stats/overview", me), [200]);
  } else if (r < 0.55) {
    record("read: team", await request("GET", "/api/users", me), [200]);
  } else if (r < 0.6) {
    record("read: articles", await request("GET", "/api/kb/articles", me), [200]);
  } else if (r < 0.78) {
    const body = { body: `Thanks for waiting, we are on it (${Math.random().toString(36).slice(2)}).` };
    record("write: reply", await request("POST", `/api/tickets/${ticket}/comments`, me, body), [201]);
  } else if (r < 0.92) {
    const change =
      Math.random() < 0.5
        ? { status: pick(STATUSES), priority: pick(PRIORITIES) }
        : { assignee_id: Math.random() < 0.3 ? null : pick(org.agents).id };
    record("write: update ticket", await request("PUT", `/api/tickets/${ticket}`, me, change), [200]);
  } else {
    const res = await request("POST", "/api/tickets", me, newTicket(org.ticketIds.length));
    record("write: create ticket", res, [201]);
    if (res.status === 201) org.ticketIds.push((JSON.parse(res.body).ticket as { id: string }).id);
  }
}

let deactivations = 0;
let deactivationsNotEffective = 0;

/** The admin's next round of team changes: each member switched off and on, an invitation sent and revoked. */
async function adminRound(org: Org, round: number): Promise<void> {
  const admin = org.admin;
  const member = org.churned[round % org.churned.length] as Person;
  const off = await request("PUT", `/api/users/${member.id}`, admin, { status: "inactive" });
  record("team: deactivate", off, [200]);
  if (off.status === 200) {
    deactivations++;
    const after = await request("GET", "/api/auth/me", member);
    record("team: deactivated member's request", after, [401]);
    if (after.status !== 401) deactivationsNotEffective++;
  }
  const email = `invitee-${round}-${Math.random().toString(36).slice(2)}@stress.example`;
  const invited = await request("POST", "/api/users/invite", admin, { email, firstName: "Grace", lastName: "Hopper" });
  record("team: invite", invited, [201]);
  const on = await request("PUT", `/api/users/${member.id}`, admin, { status: "active" });
  record("team: reactivate", on, [200]);
  const login = await request(
    "POST",
    "/api/auth/login",
    { address: member.address },
    {
      email: member.email,
      password: PASSWORD,
    },
  );
  record("team: member signs in again", login, [200]);
  if (login.status === 200) member.token = String(JSON.parse(login.body).token);
  const role = await request("PUT", `/api/users/${member.id}`, admin, { role: round % 2 ? "agent" : "admin" });
  record("team: change role", role, [200]);
  if (invited.status === 201) {
    const id = (JSON.parse(invited.body).user as { id: string }).id;
    record("team: revoke invitation", await request("DELETE", `/api/users/${id}`, admin), [200]);
  }
}

async function runLoad(orgs: Org[], server: ChildProcess): Promise<{ memory: MemorySample[] }> {
  const stopAt = performance.now() + config.durationMs;
  const memory: MemorySample[] = [await memoryOf(server)];
  const sampler = setInterval(() => void memoryOf(server).then((m) => memory.push(m)), 5_000);
  const agents = orgs.flatMap((org) => org.agents.map((me) => ({ org, me }))).slice(0, config.clients);
  await Promise.all([
    ...agents.map(async ({ org, me }) => {
      while (performance.now() < stopAt) await agentStep(org, me);
    }),
    ...orgs.map(async (org) => {
      for (let round = 0; performance.now() < stopAt; round++) await adminRound(org, round);
    }),
  ]);
  clearInterval(sampler);
  memory.push(await memoryOf(server));
  return { memory };
}

// Report -------------------------------------------------------------------------------------------------------------

function report(seconds: number, memory: MemorySample[]): void {
  const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
  const header = ["operation", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "answers by status", "errors"];
  const body = rows.map(([op, s]) => {
    const sorted = Float64Array.from(s.latencies).sort();
    const statuses = [...s.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([code, n]) => `${code}: ${n}`)
      .join(", ");
    return [
      op,
      String(s.latencies.length),
      (s.latencies.length / seconds).toFixed(1),
      percentile(sorted, 0.5).toFixed(1),
      percentile(sorted, 0.99).toFixed(1),
      (sorted[sorted.length - 1] ?? 0).toFixed(1),
      statuses,
      String(s.errors),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(
    `|${widths.map((w, i) => (i === 0 || i === 6 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`,
  );
  for (const row of body) console.log(line(row));

  const all = rows.flatMap(([, s]) => s.latencies);
  const byStatus = new Map<number, number>();
  for (const [, s] of rows) for (const [code, n] of s.statuses) byStatus.set(code, (byStatus.get(code) ?? 0) + n);
  const errors = rows.reduce((n, [, s]) => n + s.errors, 0);
  console.log(
    `\n${all.length} requests in ${seconds.toFixed(0)} s (${(all.length / seconds).toFixed(0)}/s); ` +
      `answers by status: ${[...byStatus.entries()]
        .sort(([a], [b]) => a - b)
        .map(([c, n]) => `${c}: ${n}`)
        .join(", ")}; errors (any status but the expected one): ${errors}`,
  );
  for (const [op, s] of rows) if (s.firstError) console.log(`  first error of ${op}: ${s.firstError}`);
  console.log(
    `deactivations: ${deactivations}, of which the member's next request still got in: ${deactivationsNotEffective}`,
  );
  const series = (pick: (m: MemorySample) => number) => memory.map((m) => pick(m).toFixed(0)).join(" ");
  const first = memory[0];
  const last = memory.at(-1);
  if (!first || !last) return;
  console.log(
    `server memory at the start and the end of the load: RSS ${first.rssMb.toFixed(0)} -> ${last.rssMb.toFixed(0)} MB, ` +
      `V8 heap in use ${first.heapMb.toFixed(0)} -> ${last.heapMb.toFixed(0)} MB, answer cache ` +
      `${first.answerCacheMb.toFixed(0)} -> ${last.answerCacheMb.toFixed(0)} MB (its budget: ANSWER_CACHE_MB, 64 by default)`,
  );
  console.log(`  every 5 s, RSS: ${series((m) => m.rssMb)}`);
  console.log(`  every 5 s, heap: ${series((m) => m.heapMb)}`);
  console.log(`  every 5 s, answer cache: ${series((m) => m.answerCacheMb)}`);
}

async function main(): Promise<void> {
  console.log(
    `Stress: ${config.clients} agents over ${config.organizations} organizations, their admins changing the team, ` +
      `${config.durationMs / 1000} s on PostgreSQL (${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
  );
  const url = await recreateDatabase();
  const outboxDir = mkdtempSync(path.join(os.tmpdir(), "cove-stress-outbox-"));
  const server = await startServer({ url, outboxDir });
  try {
    console.log("Setting up the organizations, their members (invited and accepted) and tickets...");
    const orgs = await setUp(url, outboxDir);
    console.log("Load...");
    const started = performance.now();
    const { memory } = await runLoad(orgs, server);
    report((performance.now() - started) / 1000, memory);
  } finally {
    server.send("stop");
    await new Promise((r) => server.once("exit", r));
    agent.destroy();
    rmSync(outboxDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
