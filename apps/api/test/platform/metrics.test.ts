import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createTicket, onPostgres, registerOrg, type TestApp } from "../helpers.ts";
import { connectRealtime } from "../support/realtime-client.ts";

/** GET /metrics (platform/metrics.ts): Prometheus text for a scraper holding METRICS_TOKEN, and nothing else. */

const TOKEN = "metrics-token-0123456789abcdef";

/** One sample of the text format: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** A port nothing listens on: mail sent there fails at once. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

let t: TestApp;
let plain: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({
    metricsToken: TOKEN,
    smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
    mailRetryLimit: 0,
  });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  plain = await createTestApp();
});

afterAll(async () => {
  await t?.close();
  await plain?.close();
});

async function scrape(app = t.app): Promise<Sample[]> {
  const res = await app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(res.body);
}

describe("/metrics", () => {
  it("answers 404 when no METRICS_TOKEN is set, and 401 without the token or with another", async () => {
    const none = await plain.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(none.statusCode).toBe(404);
    for (const authorization of [undefined, "Bearer", `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, "Bearer wrong"]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().code).toBe("UNAUTHORIZED");
      expect(res.body).not.toContain("cove_");
    }
  });

  it("times requests by method, route pattern and status, never the path asked for or an organization", async () => {
    const org = await registerOrg(t.app);
    const ticket = await createTicket(t.app, org);
    const auth = { authorization: `Bearer ${org.token}` };
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: auth })).statusCode).toBe(
        200,
      );
    }
    await t.app.inject({ method: "GET", url: `/api/no-such/${ticket.id}` });
    const text = (await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } }))
      .body;
    const samples = parseExposition(text);

    const detail = find(samples, "cove_http_request_duration_seconds_count", {
      method: "GET",
      route: "/api/tickets/:id",
      status: "200",
    });
    expect(detail.map((s) => s.value)).toEqual([3]);
    expect(
      find(samples, "cove_http_request_duration_seconds_bucket", { route: "/api/tickets/:id", le: "+Inf" }),
    ).toHaveLength(1);
    expect(
      find(samples, "cove_http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/tickets",
        status: "201",
      }),
    ).toHaveLength(1);
    expect(
      find(samples, "cove_http_request_duration_seconds_count", { route: "unmatched", status: "404" }),
    ).toHaveLength(1);
    // Nothing of the organization or its ticket: no id, no slug, no name.
    for (const secret of [
      ticket.id,
      org.user.organizationId,
      org.user.organizationSlug,
      org.user.organizationName,
      org.user.email,
    ]) {
      expect(text).not.toContain(secret);
    }
    const labelNames = new Set(samples.filter((s) => s.name.startsWith("cove_")).flatMap((s) => Object.keys(s.labels)));
    expect([...labelNames].sort()).toEqual(["le", "method", "outcome", "queue", "route", "status"]);
  });

  it("counts open sockets and times events from their commit to a socket", async () => {
    const org = await registerOrg(t.app);
    const socket = await connectRealtime(base);
    await socket.join(org.token, ["tickets"]);
    expect(find(await scrape(), "cove_websocket_connections")[0]?.value).toBe(1);
    const before = find(await scrape(), "cove_event_delivery_seconds_count")[0]?.value ?? 0;
    await createTicket(t.app, org);
    await socket.next((f) => f.type === "event" && f.event.type === "ticket.created");
    const after = await scrape();
    expect(find(after, "cove_event_delivery_seconds_count")[0]?.value).toBe(before + 1);
    expect(find(after, "cove_event_delivery_seconds_bucket", { le: "+Inf" })[0]?.value).toBe(before + 1);
    socket.close();
    await socket.closed;
    await expect.poll(async () => find(await scrape(), "cove_websocket_connections")[0]?.value).toBe(0);
  });

  it("counts waiting and failed jobs by queue, and mail sent and failed", async () => {
    const samples = await scrape();
    expect(find(samples, "cove_jobs_waiting", { queue: "send-mail" })).toHaveLength(1);
    expect(find(samples, "cove_jobs_waiting", { queue: "webhooks" })).toHaveLength(1);
    const failedBefore = find(samples, "cove_jobs_failed_total", { queue: "send-mail" })[0]?.value ?? 0;
    const mailFailedBefore = find(samples, "cove_mail_failed_total")[0]?.value ?? 0;
    // A password reset's email, to a mail server that is not there, with no retry: it fails for good.
    const org = await registerOrg(t.app);
    const forgot = await t.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      payload: { email: org.user.email },
    });
    expect(forgot.statusCode).toBeLessThan(300);
    await expect
      .poll(async () => find(await scrape(), "cove_jobs_failed_total", { queue: "send-mail" })[0]?.value, {
        timeout: 20_000,
      })
      .toBeGreaterThan(failedBefore);
    expect(find(await scrape(), "cove_mail_failed_total")[0]?.value).toBeGreaterThan(mailFailedBefore);

    // The app without SMTP writes mail to its outbox: that counts as sent.
    const other = await registerOrg(plain.app);
    await plain.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email: other.user.email } });
    await expect
      .poll(
        async () => find(parseExposition(await plain.app.metrics.registry.metrics()), "cove_mail_sent_total")[0]?.value,
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThan(0);
  });

  it("counts the assistant's answers by outcome", async () => {
    const org = await registerOrg(t.app);
    const total = (samples: Sample[]) => find(samples, "cove_ai_answers_total").reduce((sum, s) => sum + s.value, 0);
    const before = await scrape();
    expect(
      find(before, "cove_ai_answers_total")
        .map((s) => s.labels.outcome)
        .sort(),
    ).toEqual(["answered", "handed_off"]);
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-response",
      headers: { authorization: `Bearer ${org.token}` },
      payload: { message: "Can I talk to a person please?" },
    });
    expect(asked.statusCode).toBe(200);
    const after = await scrape();
    expect(total(after)).toBe(total(before) + 1);
    expect(find(after, "cove_ai_answers_total", { outcome: "handed_off" })[0]?.value).toBe(
      (find(before, "cove_ai_answers_total", { outcome: "handed_off" })[0]?.value ?? 0) + 1,
    );
  });

  it("reports the database pool on PostgreSQL, and Node's process metrics", async () => {
    const samples = await scrape();
    expect(find(samples, "process_cpu_user_seconds_total")).toHaveLength(1);
    expect(find(samples, "nodejs_eventloop_lag_seconds")).toHaveLength(1);
    expect(find(samples, "process_resident_memory_bytes")).toHaveLength(1);
    if (onPostgres) {
      expect(find(samples, "cove_db_pool_connections_in_use")[0]?.value).toBeGreaterThanOrEqual(0);
      expect(find(samples, "cove_db_pool_waiting")[0]?.value).toBeGreaterThanOrEqual(0);
    } else {
      // The embedded database has one connection and no pool to report.
      expect(find(samples, "cove_db_pool_connections_in_use")).toEqual([]);
    }
  });
});
