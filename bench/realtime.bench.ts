/**
 * npm run bench:realtime: how long a committed change takes to reach the browsers that follow it (docs/engineering.md,
 * "Budgets": p99 <= 50 ms with 1,000 sockets, on one instance and across two), and what an idle socket costs.
 *
 * It recreates a PostgreSQL database, starts the real app (one, then two instances on the same database), opens
 * 1,000 signed-in sockets that follow their organization's tickets, and changes tickets through the HTTP API of
 * instance 1 at a steady rate. Each event's delay is its arrival at a socket minus the time its transaction started
 * (the event's occurred_at, PostgreSQL's now()): an upper bound of commit-to-socket, since it also counts the
 * transaction itself. Bench and database share this machine's clock.
 *
 * Two shapes: 20 organizations of 50 followers (an event reaches 50 sockets), and one organization whose 1,000
 * sockets all follow it (an event reaches 1,000: the worst fan-out). It measures and prints; it asserts nothing.
 *
 * Environment: DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_DB
 * (default cove_bench_realtime), BENCH_SOCKETS (1000), BENCH_CHANGES_PER_SECOND (20), BENCH_DURATION seconds (15).
 * Flag --quick: 200 sockets, 5 seconds.
 */
import { createHash, randomUUID } from "node:crypto";
import type { ServerFrame } from "@cove/contract/realtime.ts";
import pg from "pg";
import WebSocket from "ws";
import { databaseUrl, positiveNumber, startInstance } from "./realtime-instance.ts";

const quick = process.argv.includes("--quick");
const num = positiveNumber;
const config = {
  adminUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  dbName: process.env.BENCH_DB || "cove_bench_realtime",
  sockets: num("BENCH_SOCKETS", quick ? 200 : 1_000),
  rate: num("BENCH_CHANGES_PER_SECOND", 20),
  seconds: num("BENCH_DURATION", quick ? 5 : 15),
};
const SOCKETS_PER_MEMBER = 10;

const dbUrl = (name: string) => databaseUrl(config.adminUrl, name);

const start = () => startInstance(dbUrl(config.dbName));

const token = (label: string) => `bench${createHash("md5").update(label).digest("hex")}`;
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

interface Org {
  id: string;
  adminToken: string;
  memberTokens: string[];
  ticketIds: string[];
}

/** Organizations with members and sessions, written directly (the invite flow is not what is measured). */
async function seedOrgs(client: pg.Client, orgs: number, membersPerOrg: number): Promise<Org[]> {
  const out: Org[] = [];
  for (let o = 0; o < orgs; o++) {
    const orgId = randomUUID();
    const slug = `rt-${o}-${orgId.slice(0, 8)}`;
    await client.query(
      `insert into organizations (id, name, slug, plan, subscription_status, trial_ends_at)
       values ($1, $2, $3, 'business', 'active', null)`,
      [orgId, `Realtime ${o}`, slug],
    );
    const memberTokens: string[] = [];
    let adminToken = "";
    for (let m = 0; m <= membersPerOrg; m++) {
      const userId = randomUUID();
      const tok = token(`${orgId}-${m}`);
      await client.query(
        `insert into users (id, organization_id, email, first_name, last_name, role, status)
         values ($1, $2, $3, 'Member', $4, $5, 'active')`,
        [userId, orgId, `m${m}-${orgId}@bench.test`, String(m), m === 0 ? "admin" : "agent"],
      );
      await client.query(
        `insert into sessions (organization_id, user_id, token_hash, expires_at)
         values ($1, $2, $3, now() + interval '1 day')`,
        [orgId, userId, sha(tok)],
      );
      if (m === 0) adminToken = tok;
      else memberTokens.push(tok);
    }
    out.push({ id: orgId, adminToken, memberTokens, ticketIds: [] });
  }
  return out;
}

async function createTickets(port: number, org: Org, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/api/tickets`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.adminToken}` },
      body: JSON.stringify({
        subject: `Realtime ${i}`,
        description: "Benchmark ticket",
        requester_name: "Bench",
        requester_email: "bench@example.com",
      }),
    });
    const body = (await res.json()) as { ticket: { id: string } };
    org.ticketIds.push(body.ticket.id);
  }
}

interface Follower {
  socket: WebSocket;
  org: string;
}

async function openFollowers(ports: number[], orgs: Org[], total: number): Promise<Follower[]> {
  const out: Follower[] = [];
  const plan: { port: number; token: string; org: string }[] = [];
  let i = 0;
  outer: for (const org of orgs) {
    for (const tok of org.memberTokens) {
      for (let s = 0; s < SOCKETS_PER_MEMBER; s++) {
        if (plan.length >= total) break outer;
        plan.push({ port: ports[i++ % ports.length] as number, token: tok, org: org.id });
      }
    }
  }
  // Opened in batches, as browsers arrive over a few moments rather than all in one instant.
  for (let start = 0; start < plan.length; start += 100) {
    await Promise.all(
      plan.slice(start, start + 100).map(
        (p) =>
          new Promise<void>((resolve, reject) => {
            const socket = new WebSocket(`ws://127.0.0.1:${p.port}/api/realtime`);
            socket.once("error", reject);
            socket.once("open", () => socket.send(JSON.stringify({ type: "auth", token: p.token })));
            const onMessage = (data: WebSocket.RawData) => {
              const frame = JSON.parse(String(data)) as ServerFrame;
              if (frame.type === "ready") socket.send(JSON.stringify({ type: "subscribe", topic: "tickets" }));
              if (frame.type === "subscribed") {
                socket.off("message", onMessage);
                out.push({ socket, org: p.org });
                resolve();
              }
              if (frame.type === "error") reject(new Error(frame.message));
            };
            socket.on("message", onMessage);
          }),
      ),
    );
  }
  return out;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface Result {
  name: string;
  events: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * How many changes each organization has had, across the shapes: a shape that started counting again would set a
 * ticket's priority to what an earlier shape left it at, a write that changes nothing and so (rightly) emits no event.
 */
const changes = new Map<string, number>();

/** Changes tickets at a steady rate through instance 1 and records each delivery's delay. */
async function measure(name: string, writePort: number, orgs: Org[], followers: Follower[]): Promise<Result> {
  const delays: number[] = [];
  const perOrg = new Map<string, number>();
  for (const f of followers) perOrg.set(f.org, (perOrg.get(f.org) ?? 0) + 1);
  let expected = 0;
  const onMessage = (data: WebSocket.RawData) => {
    const frame = JSON.parse(String(data)) as ServerFrame;
    if (frame.type === "event" && frame.event.type === "ticket.updated") {
      delays.push(Date.now() - new Date(frame.event.occurred_at).getTime());
    }
  };
  for (const f of followers) f.socket.on("message", onMessage);
  const total = Math.round(config.rate * config.seconds);
  const started = Date.now();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / config.rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const org = orgs[i % orgs.length] as Org;
    const n = changes.get(org.id) ?? 0;
    changes.set(org.id, n + 1);
    // Each change flips a ticket's priority, so every write is a real change (and emits its event).
    const ticketId = org.ticketIds[n % org.ticketIds.length] as string;
    const priority = Math.floor(n / org.ticketIds.length) % 2 === 0 ? "high" : "normal";
    expected += perOrg.get(org.id) ?? 0;
    writes.push(
      fetch(`http://127.0.0.1:${writePort}/api/tickets/${ticketId}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.adminToken}` },
        body: JSON.stringify({ priority }),
      }).then((r) => r.arrayBuffer()),
    );
  }
  await Promise.all(writes);
  await new Promise((r) => setTimeout(r, 1_000));
  for (const f of followers) f.socket.off("message", onMessage);
  delays.sort((a, b) => a - b);
  return {
    name,
    events: total,
    deliveries: delays.length,
    expected,
    p50: pct(delays, 0.5),
    p99: pct(delays, 0.99),
    max: delays.at(-1) ?? 0,
  };
}

function print(results: Result[]) {
  const rows = results.map((r) =>
    [
      r.name.padEnd(52),
      String(r.events).padStart(7),
      `${r.deliveries}/${r.expected}`.padStart(14),
      `${r.p50} ms`.padStart(8),
      `${r.p99} ms`.padStart(8),
      `${r.max} ms`.padStart(8),
    ].join(" "),
  );
  console.log(
    [
      "shape".padEnd(52),
      "changes".padStart(7),
      "delivered".padStart(14),
      "p50".padStart(8),
      "p99".padStart(8),
      "max".padStart(8),
    ].join(" "),
  );
  for (const row of rows) console.log(row);
}

async function main() {
  console.log(
    `bench:realtime: ${config.sockets} sockets, ${config.rate} ticket changes/s for ${config.seconds} s (${quick ? "quick" : "full"})`,
  );
  const admin = new pg.Client({ connectionString: config.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${config.dbName} with (force)`);
  await admin.query(`create database ${config.dbName}`);
  await admin.end();

  const results: Result[] = [];
  const first = await start();
  const client = new pg.Client({ connectionString: dbUrl(config.dbName) });
  await client.connect();
  const membersNeeded = Math.ceil(config.sockets / SOCKETS_PER_MEMBER);
  const spread = await seedOrgs(client, 20, Math.ceil(membersNeeded / 20));
  const [crowd] = await seedOrgs(client, 1, membersNeeded);
  await client.end();
  if (!crowd) throw new Error("no organization");
  for (const org of [...spread, crowd]) await createTickets(first.port, org, 5);

  const idle = await first.memory();
  let followers = await openFollowers([first.port], spread, config.sockets);
  await new Promise((r) => setTimeout(r, 1_000));
  const busy = await first.memory();
  const perSocket = (busy.rss - idle.rss) / followers.length;
  console.log(
    `memory: ${(idle.rss / 2 ** 20).toFixed(0)} MB RSS before, ${(busy.rss / 2 ** 20).toFixed(0)} MB with ${busy.sockets} open sockets: ` +
      `${(perSocket / 1024).toFixed(1)} KB RSS per idle socket (heap ${((busy.heapUsed - idle.heapUsed) / followers.length / 1024).toFixed(1)} KB)`,
  );
  results.push(
    await measure(`one instance, 20 orgs x ${followers.length / 20} followers`, first.port, spread, followers),
  );
  for (const f of followers) f.socket.close();

  followers = await openFollowers([first.port], [crowd], config.sockets);
  results.push(await measure(`one instance, 1 org x ${followers.length} followers`, first.port, [crowd], followers));
  for (const f of followers) f.socket.close();

  const second = await start();
  followers = await openFollowers([first.port, second.port], spread, config.sockets);
  results.push(await measure(`two instances (writes on 1, sockets on both), 20 orgs`, first.port, spread, followers));
  for (const f of followers) f.socket.close();
  followers = await openFollowers([second.port], [crowd], config.sockets);
  results.push(
    await measure(
      `two instances (writes on 1, sockets on 2), 1 org x ${followers.length}`,
      first.port,
      [crowd],
      followers,
    ),
  );
  for (const f of followers) f.socket.close();

  print(results);
  await first.stop();
  await second.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
