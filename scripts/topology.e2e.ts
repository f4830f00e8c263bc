// npm run test:topology (after npm run build): the production shape of issue 30, from deploy/. PostgreSQL behind
// PgBouncer (transaction pooling), 3 instances behind HAProxy, Prometheus scraping them. Through HAProxy, a mixed load
// of reads and writes runs while each instance in turn is stopped (SIGTERM) and started again: no request fails and
// every acknowledged write is in the database. A browser following a ticket whose instance stops sees a change made
// through another instance within 5 s. kill -9 of one instance: only requests in flight on it fail, and the mails it
// had queued are sent by the others. Prometheus reports every instance up.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, startTopology, type Topology } from "./topology.ts";

let topology: Topology;
let token: string;
let account: { email: string; password: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  topology = await startTopology({
    // Three instances and a browser on a small machine: the assistant's sentence encoder stays off.
    env: { AI_SENTENCE_ENCODER: "false", LOG_LEVEL: "warn" },
    drainDelayMs: 3000,
    shutdownGraceMs: 10_000,
  });
  const id = Date.now().toString(36);
  account = { email: `ops-${id}@example.com`, password: "rolling restart 30" };
  const res = await fetch(`${topology.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      organizationName: `Topology ${id}`,
      firstName: "Rita",
      lastName: "Ops",
      email: account.email,
      password: account.password,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  token = ((await res.json()) as { token: string }).token;
});

afterAll(async () => {
  await topology?.stop();
});

interface Failure {
  what: string;
  started: number;
  ended: number;
  outcome: string;
}

/**
 * Several clients, each in a loop: create a ticket, reply on one (a public reply mails its requester), list tickets,
 * read a ticket. Every answer is checked; what the API acknowledged (201) is remembered, to look for afterwards.
 */
class Load {
  tickets: string[] = [];
  comments: { id: string; body: string }[] = [];
  failures: Failure[] = [];
  requests = 0;
  latencies: number[] = [];
  private running = true;
  private loops: Promise<void>[] = [];
  private seq = 0;

  constructor(
    private base: string,
    clients: number,
  ) {
    for (let c = 0; c < clients; c++) this.loops.push(this.loop(c));
  }

  private async call(what: string, method: string, url: string, body?: unknown, expected = 200): Promise<unknown> {
    const started = Date.now();
    this.requests++;
    try {
      const res = await fetch(`${this.base}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      this.latencies.push(Date.now() - started);
      if (res.status !== expected) {
        this.failures.push({ what, started, ended: Date.now(), outcome: `${res.status} ${text.slice(0, 200)}` });
        return null;
      }
      return JSON.parse(text) as unknown;
    } catch (err) {
      this.failures.push({ what, started, ended: Date.now(), outcome: String(err) });
      return null;
    }
  }

  private async loop(client: number) {
    for (let step = client; this.running; step++) {
      const n = this.seq++;
      const some = this.tickets[n % Math.max(1, this.tickets.length)];
      if (step % 4 === 0 || !some) {
        const made = (await this.call(
          "create ticket",
          "POST",
          "/api/tickets",
          {
            subject: `Load ticket ${n}`,
            description: "Made while instances restart.",
            requester_name: "Ana Ruiz",
            requester_email: "ana@example.com",
          },
          201,
        )) as { ticket: { id: string } } | null;
        if (made) this.tickets.push(made.ticket.id);
      } else if (step % 4 === 1) {
        const body = `Reply ${n} ${Math.random().toString(36).slice(2)}`;
        const made = (await this.call(
          "reply",
          "POST",
          `/api/tickets/${some}/comments`,
          { body, is_public: true },
          201,
        )) as { comment: { id: string } } | null;
        if (made) this.comments.push({ id: made.comment.id, body });
      } else if (step % 4 === 2) {
        await this.call("list tickets", "GET", "/api/tickets");
      } else {
        await this.call("read ticket", "GET", `/api/tickets/${some}`);
      }
    }
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** The acknowledged writes missing from the database (read directly, not through any instance). */
async function missingWrites(load: Load): Promise<{ tickets: string[]; comments: string[] }> {
  const db = new pg.Client({ connectionString: topology.database.directUrl });
  await db.connect();
  try {
    const tickets = await db.query<{ id: string }>("SELECT id::text FROM tickets WHERE id = ANY($1::uuid[])", [
      load.tickets,
    ]);
    const comments = await db.query<{ id: string }>("SELECT id::text FROM ticket_comments WHERE id = ANY($1::uuid[])", [
      load.comments.map((c) => c.id),
    ]);
    const foundTickets = new Set(tickets.rows.map((r) => r.id));
    const foundComments = new Set(comments.rows.map((r) => r.id));
    return {
      tickets: load.tickets.filter((id) => !foundTickets.has(id)),
      comments: load.comments.map((c) => c.id).filter((id) => !foundComments.has(id)),
    };
  } finally {
    await db.end();
  }
}

/** Stops an instance with SIGTERM (it drains and exits 0), then starts it again and waits until HAProxy uses it. */
async function restart(instance: Instance) {
  const exit = await topology.stopInstance(instance, "SIGTERM");
  expect(exit, `${instance.name}'s exit after SIGTERM`).toBe(0);
  await topology.startInstance(instance);
  await topology.waitForStatus(instance, "UP");
}

describe("Cove behind HAProxy, 3 instances on PgBouncer", () => {
  it("Prometheus scrapes every instance's /metrics with the token: up is 1 for each", async () => {
    const targets = topology.instances.map((i) => `127.0.0.1:${i.port}`).sort();
    await expect
      .poll(
        async () => {
          const res = await fetch(`${topology.prometheusUrl}/api/v1/query?query=up{job="cove"}`);
          const answer = (await res.json()) as {
            data: { result: { metric: { instance: string }; value: [number, string] }[] };
          };
          return answer.data.result
            .filter((r) => r.value[1] === "1")
            .map((r) => r.metric.instance)
            .sort();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toEqual(targets);
    // Without the token, an instance does not show its metrics.
    const instance = topology.instances[0] as Instance;
    expect((await fetch(`${instance.url}/metrics`)).status).not.toBe(200);
  });

  it("a rolling restart under a mixed load of reads and writes fails no request and loses no write", {
    timeout: 240_000,
  }, async () => {
    const load = new Load(topology.url, 4);
    await sleep(1500);
    for (const instance of topology.instances) {
      await restart(instance);
      await sleep(1000);
    }
    await load.stop();
    expect(load.failures).toEqual([]);
    expect(load.tickets.length).toBeGreaterThan(10);
    expect(load.comments.length).toBeGreaterThan(10);
    expect(await missingWrites(load)).toEqual({ tickets: [], comments: [] });
  });

  it("a browser following a ticket whose instance stops sees a change made through another instance within 5 s", async () => {
    const ticket = (await (
      await fetch(`${topology.url}/api/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          subject: "Followed through a restart",
          description: "Watch me.",
          requester_name: "Ana Ruiz",
          requester_email: "ana@example.com",
        }),
      })
    ).json()) as { ticket: { id: string } };

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    try {
      const page = await browser.newPage({ baseURL: topology.url });
      await page.goto("/login");
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.goto(`/tickets/${ticket.ticket.id}`);
      await page.getByText("Watch me.").waitFor();

      // The instance holding the browser's socket: the one whose metrics count a connection.
      const holder = await socketHolder();
      const stopped = topology.stopInstance(holder, "SIGTERM");
      // The change goes through another instance, straight to it.
      const other = topology.instances.find((i) => i !== holder) as Instance;
      await sleep(500);
      const reply = await fetch(`${other.url}/api/tickets/${ticket.ticket.id}/comments`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ body: "Said while an instance was stopping.", is_public: false }),
      });
      expect(reply.status).toBe(201);
      await page.getByText("Said while an instance was stopping.").waitFor({ timeout: 5000 });
      expect(await stopped).toBe(0);
      await topology.startInstance(holder);
      await topology.waitForStatus(holder, "UP");
    } finally {
      await browser.close();
    }
  });

  it("kill -9 of one instance under load fails only the requests in flight on it, and its queued mail is sent by the others", {
    timeout: 240_000,
  }, async () => {
    const load = new Load(topology.url, 4);
    await sleep(3000);
    const victim = topology.instances[1] as Instance;
    const exit = await topology.stopInstance(victim, "SIGKILL");
    // The process is gone (its exit was seen): a request sent after this cannot have been on it.
    const goneAt = Date.now();
    expect(exit).toBe("SIGKILL");
    await topology.waitForStatus(victim, "DOWN", 10_000);
    await sleep(3000);
    await load.stop();

    // Only requests that were on their way when the instance died: sent before it was gone, at most one per client.
    for (const failure of load.failures) expect(failure.started, JSON.stringify(failure)).toBeLessThanOrEqual(goneAt);
    expect(load.failures.length).toBeLessThanOrEqual(4);
    const missing = await missingWrites(load);
    expect(missing).toEqual({ tickets: [], comments: [] });

    // Every acknowledged public reply's mail to the requester reaches an outbox: the dead instance's jobs are taken
    // over by the others.
    await expect
      .poll(() => load.comments.filter((c) => mailsMentioning(c.body) === 0).map((c) => c.body), {
        timeout: 150_000,
        interval: 2000,
      })
      .toEqual([]);
    await topology.startInstance(victim);
    await topology.waitForStatus(victim, "UP");
  });
});

/** How many outbox files (of every instance's DATA_DIR) contain the text. */
function mailsMentioning(text: string): number {
  let found = 0;
  for (const entry of readdirSync(topology.dir)) {
    if (!entry.startsWith("data-")) continue;
    const outbox = path.join(topology.dir, entry, "outbox");
    let files: string[] = [];
    try {
      files = readdirSync(outbox);
    } catch {
      continue;
    }
    for (const file of files) {
      const mail = readFileSync(path.join(outbox, file), "utf8").replace(/=\r?\n/g, "");
      if (mail.includes(text)) found++;
    }
  }
  return found;
}

/** The instance whose /metrics counts an open WebSocket. */
async function socketHolder(): Promise<Instance> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const instance of topology.instances) {
      const res = await fetch(`${instance.url}/metrics`, {
        headers: { authorization: `Bearer ${topology.metricsToken}` },
      });
      const text = await res.text();
      const line = text.split("\n").find((l) => l.startsWith("cove_websocket_connections"));
      if (line && Number(line.split(" ").at(-1)) > 0) return instance;
    }
    await sleep(200);
  }
  throw new Error("no instance counts the browser's WebSocket (cove_websocket_connections)");
}
