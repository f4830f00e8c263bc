/**
 * npm run bench:chat: live chat's round trip with many visitors connected (docs/engineering.md, "Budgets": a chat message,
 * sender to the other party, p99 <= 50 ms with 1,000 open connections, one instance), and what they cost in memory.
 *
 * It recreates a PostgreSQL database, starts the real app in its own process (bench/realtime-server.ts), writes one
 * organization with 5 agents and 1,000 visitors each in a chat that waits for a person (so the assistant stays out of
 * it), opens one socket per visitor (following its own session) and one per agent (following the organization's chats).
 * Then, at a steady rate, a random visitor writes over HTTP; the first agent's socket sees it (leg 1: visitor to the
 * agent's screen); that agent answers over HTTP; the visitor's socket sees the answer (leg 2: agent to visitor). Each
 * leg runs from just before the HTTP call to the frame's arrival, so it includes the write itself. Visitors' calls come
 * from many loopback addresses, as visitors come from many addresses (the per-address limit is not what is measured).
 * It measures and prints; it asserts nothing.
 *
 * Environment: DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_DB (default
 * cove_bench_chat), BENCH_VISITORS (1000), BENCH_MESSAGES_PER_SECOND (20), BENCH_DURATION seconds (15). Flag --quick:
 * 200 visitors, 5 seconds.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { request } from "node:http";
import type { ServerFrame } from "@cove/contract/realtime.ts";
import pg from "pg";
import WebSocket from "ws";
import { databaseUrl, positiveNumber, startInstance } from "./realtime-instance.ts";

const quick = process.argv.includes("--quick");
const num = positiveNumber;
const config = {
  adminUrl: process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  dbName: process.env.BENCH_DB || "cove_bench_chat",
  visitors: num("BENCH_VISITORS", quick ? 200 : 1_000),
  rate: num("BENCH_MESSAGES_PER_SECOND", 20),
  seconds: num("BENCH_DURATION", quick ? 5 : 15),
};
const AGENTS = 5;

const dbUrl = (name: string) => databaseUrl(config.adminUrl, name);

const start = () => startInstance(dbUrl(config.dbName));

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

interface Seeded {
  slug: string;
  agentTokens: string[];
  visitors: { token: string; sessionId: string }[];
}

/** The organization, its agents and its visitors' waiting chats, written directly (starting chats is not measured). */
async function seed(client: pg.Client): Promise<Seeded> {
  const orgId = randomUUID();
  const slug = `chat-bench-${orgId.slice(0, 8)}`;
  await client.query(
    `insert into organizations (id, name, slug, plan, subscription_status, trial_ends_at)
     values ($1, 'Chat bench', $2, 'business', 'active', null)`,
    [orgId, slug],
  );
  const agentTokens: string[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const userId = randomUUID();
    const token = randomBytes(32).toString("base64url");
    await client.query(
      `insert into users (id, organization_id, email, first_name, last_name, role, status)
       values ($1, $2, $3, 'Agent', $4, 'agent', 'active')`,
      [userId, orgId, `agent${a}-${orgId}@bench.test`, String(a)],
    );
    await client.query(
      `insert into sessions (organization_id, user_id, token_hash, expires_at) values ($1, $2, $3, now() + interval '1 day')`,
      [orgId, userId, sha(token)],
    );
    agentTokens.push(token);
  }
  const visitors: Seeded["visitors"] = [];
  for (let v = 0; v < config.visitors; v++) {
    const contactId = randomUUID();
    const sessionId = randomUUID();
    const token = `ct.${randomBytes(32).toString("base64url")}`;
    await client.query(`insert into contacts (id, organization_id, name) values ($1, $2, $3)`, [
      contactId,
      orgId,
      `Visitor ${v}`,
    ]);
    await client.query(
      `insert into contact_sessions (organization_id, contact_id, kind, token_hash, expires_at)
       values ($1, $2, 'visitor', $3, now() + interval '1 day')`,
      [orgId, contactId, sha(token)],
    );
    // Waiting for a person, so the assistant does not answer; no email, so it never becomes a ticket.
    await client.query(
      `insert into chat_sessions (id, organization_id, contact_id, visitor_name, waiting_for_human, waiting_since,
                                  handed_off_at)
       values ($1, $2, $3, $4, true, now(), now())`,
      [sessionId, orgId, contactId, `Visitor ${v}`],
    );
    visitors.push({ token, sessionId });
  }
  return { slug, agentTokens, visitors };
}

/** An HTTP POST from a given local address (visitors come from many). */
function post(port: number, url: string, token: string, body: object, localAddress = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: url,
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

type Waiter = (frame: ServerFrame) => boolean;

interface Socket {
  ws: WebSocket;
  waiters: Set<Waiter>;
}

function openSocket(port: number, token: string, topic: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
    const socket: Socket = { ws, waiters: new Set() };
    ws.on("open", () => ws.send(JSON.stringify({ type: "auth", token })));
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as ServerFrame;
      if (frame.type === "ready") ws.send(JSON.stringify({ type: "subscribe", topic }));
      else if (frame.type === "subscribed") resolve(socket);
      else if (frame.type === "error") reject(new Error(JSON.stringify(frame)));
      for (const w of socket.waiters) if (w(frame)) socket.waiters.delete(w);
    });
    ws.on("error", reject);
  });
}

function arrival(socket: Socket, match: (frame: ServerFrame) => boolean, ms = 5_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.waiters.delete(waiter);
      reject(new Error("no frame within 5 s"));
    }, ms);
    const waiter: Waiter = (frame) => {
      if (!match(frame)) return false;
      clearTimeout(timer);
      resolve(performance.now());
      return true;
    };
    socket.waiters.add(waiter);
  });
}

const isMessage = (sessionId: string, sender: string) => (f: ServerFrame) =>
  f.type === "event" &&
  f.event.type === "chat.message_added" &&
  f.event.data.session_id === sessionId &&
  f.event.data.sender_type === sender;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const summary = (name: string, values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(1)} ms`;
  return `${name.padEnd(34)} n=${String(s.length).padStart(4)}  p50 ${f(percentile(s, 50))}  p95 ${f(percentile(s, 95))}  p99 ${f(percentile(s, 99))}  max ${f(s.at(-1) ?? Number.NaN)}`;
};

async function main() {
  console.log(
    `bench:chat: ${config.visitors} visitors + ${AGENTS} agents connected, ${config.rate} conversations/s for ${config.seconds} s (${quick ? "quick" : "full"})`,
  );
  const admin = new pg.Client({ connectionString: config.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${config.dbName} with (force)`);
  await admin.query(`create database ${config.dbName}`);
  await admin.end();

  const app = await start();
  const client = new pg.Client({ connectionString: dbUrl(config.dbName) });
  await client.connect();
  const org = await seed(client);
  await client.end();

  const idle = await app.memory();
  const agents = await Promise.all(org.agentTokens.map((t) => openSocket(app.port, t, "chat")));
  const visitors: Socket[] = [];
  for (let i = 0; i < org.visitors.length; i += 50) {
    const batch = org.visitors.slice(i, i + 50);
    visitors.push(
      ...(await Promise.all(batch.map((v) => openSocket(app.port, v.token, `chat_session:${v.sessionId}`)))),
    );
  }
  await new Promise((r) => setTimeout(r, 1_000));
  const busy = await app.memory();
  console.log(
    `memory: ${(idle.rss / 2 ** 20).toFixed(0)} MB RSS before, ${(busy.rss / 2 ** 20).toFixed(0)} MB with ${busy.sockets} open sockets ` +
      `(${((busy.rss - idle.rss) / busy.sockets / 1024).toFixed(1)} KB RSS, ${((busy.heapUsed - idle.heapUsed) / busy.sockets / 1024).toFixed(1)} KB heap per socket)`,
  );

  const toAgent: number[] = [];
  const toVisitor: number[] = [];
  const roundTrip: number[] = [];
  let failures = 0;
  const agent = agents[0] as Socket;
  const conversation = async (n: number) => {
    const index = Math.floor(Math.random() * org.visitors.length);
    const v = org.visitors[index] as { token: string; sessionId: string };
    const socket = visitors[index] as Socket;
    try {
      const seen = arrival(agent, isMessage(v.sessionId, "visitor"));
      const start = performance.now();
      const address = `127.0.${(n >> 8) & 255}.${n & 255 || 1}`;
      const sent = await post(
        app.port,
        `/api/public/${org.slug}/chat/sessions/${v.sessionId}/messages`,
        v.token,
        { message: `Question ${n}` },
        address,
      );
      if (sent !== 201) throw new Error(`visitor message answered ${sent}`);
      const atAgent = await seen;
      toAgent.push(atAgent - start);
      const answered = arrival(socket, isMessage(v.sessionId, "agent"));
      const replyStart = performance.now();
      const status = await post(app.port, `/api/chat/sessions/${v.sessionId}/messages`, org.agentTokens[0] ?? "", {
        message: `Answer ${n}`,
      });
      if (status !== 201) throw new Error(`agent message answered ${status}`);
      const atVisitor = await answered;
      toVisitor.push(atVisitor - replyStart);
      roundTrip.push(atVisitor - start);
    } catch (err) {
      failures++;
      if (failures <= 3) console.error(err instanceof Error ? err.message : err);
    }
  };

  const running: Promise<void>[] = [];
  const total = Math.round(config.rate * config.seconds);
  const started = performance.now();
  for (let n = 1; n <= total; n++) {
    const due = started + (n * 1000) / config.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    running.push(conversation(n));
  }
  await Promise.all(running);
  const after = await app.memory();

  console.log(summary("visitor -> agent's screen", toAgent));
  console.log(summary("agent -> visitor's widget", toVisitor));
  console.log(summary("round trip", roundTrip));
  console.log(
    `failures: ${failures}; memory after: ${(after.rss / 2 ** 20).toFixed(0)} MB RSS, heap ${(after.heapUsed / 2 ** 20).toFixed(0)} MB`,
  );
  console.log("budget (docs/engineering.md): p99 <= 50 ms sender to the other party, with 1,000 open connections");
  for (const s of [...visitors, ...agents]) s.ws.close();
  await app.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
