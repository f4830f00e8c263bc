import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { AppError } from "./errors.ts";

/**
 * Prometheus metrics (docs/deploy.md, "Metrics"). Each app has its own registry (tests build many apps in one process).
 * GET /metrics answers the text format to a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`; without a
 * token configured it answers 404, as if it did not exist. No label holds anything of an organization: routes are
 * their patterns (/api/tickets/:id), never the path asked for; queues and outcomes are fixed names.
 */

/** The route label of a request no route matched (an unknown path, a page of the web app). */
export const UNMATCHED_ROUTE = "unmatched";

export type AiOutcome = "answered" | "handed_off";

export interface Metrics {
  readonly registry: Registry;
  /** An answered HTTP request: route is the route's pattern (UNMATCHED_ROUTE when none matched). */
  request(method: string, route: string, status: number, seconds: number): void;
  /** The assistant answered a question itself, or handed it to a person (modules/ai). */
  aiAnswer(outcome: AiOutcome): void;
  /** An email was handed to the mail server (or the outbox), or that attempt failed. */
  mailSent(): void;
  mailFailed(): void;
  /** A job failed with no retry left. */
  jobFailed(queue: string): void;
  /** A committed event reached this instance's sockets; occurredAt is when its transaction wrote it. */
  eventDelivered(occurredAt: string): void;
  /** Where the open sockets' count is read from (the realtime hub). */
  countSockets(read: () => number): void;
  /** A source of waiting jobs by queue, read at each scrape (the job queue, the webhooks worker). */
  countWaitingJobs(read: () => Promise<Record<string, number>>): void;
  /** Where the database pool's counts are read from (PostgreSQL; the embedded database has no pool). */
  countPool(read: () => { inUse: number; waiting: number }): void;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(opts: { defaultMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: "cove_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  let sockets: () => number = () => 0;
  new Gauge({
    name: "cove_websocket_connections",
    help: "Open realtime WebSockets on this instance",
    registers: [registry],
    collect() {
      this.set(sockets());
    },
  });
  const waitingSources: (() => Promise<Record<string, number>>)[] = [];
  new Gauge({
    name: "cove_jobs_waiting",
    help: "Jobs due or scheduled and not yet taken by a worker, by queue (all instances share the queues)",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const read of waitingSources) {
        for (const [queue, count] of Object.entries(await read())) this.set({ queue }, count);
      }
    },
  });
  const jobsFailed = new Counter({
    name: "cove_jobs_failed_total",
    help: "Jobs that failed with no retry left, by queue",
    labelNames: ["queue"] as const,
    registers: [registry],
  });
  const delivery = new Histogram({
    name: "cove_event_delivery_seconds",
    help: "From a committed event's write to its delivery to this instance's sockets",
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const mailSent = new Counter({
    name: "cove_mail_sent_total",
    help: "Emails handed to the mail server (or written to the outbox)",
    registers: [registry],
  });
  const mailFailed = new Counter({
    name: "cove_mail_failed_total",
    help: "Attempts to send an email that failed (each is retried by the job queue)",
    registers: [registry],
  });
  const ai = new Counter({
    name: "cove_ai_answers_total",
    help: "Questions the assistant answered itself or handed to a person",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  ai.inc({ outcome: "answered" }, 0);
  ai.inc({ outcome: "handed_off" }, 0);
  let pool: (() => { inUse: number; waiting: number }) | null = null;
  const poolGauges = () => {
    new Gauge({
      name: "cove_db_pool_connections_in_use",
      help: "Database connections of this instance's pool running a query or transaction",
      registers: [registry],
      collect() {
        if (pool) this.set(pool().inUse);
      },
    });
    new Gauge({
      name: "cove_db_pool_waiting",
      help: "Queries of this instance waiting for a free database connection",
      registers: [registry],
      collect() {
        if (pool) this.set(pool().waiting);
      },
    });
  };

  return {
    registry,
    request: (method, route, status, seconds) => http.observe({ method, route, status: String(status) }, seconds),
    aiAnswer: (outcome) => ai.inc({ outcome }),
    mailSent: () => mailSent.inc(),
    mailFailed: () => mailFailed.inc(),
    jobFailed: (queue) => jobsFailed.inc({ queue }),
    eventDelivered(occurredAt) {
      const seconds = (Date.now() - Date.parse(occurredAt)) / 1000;
      if (Number.isFinite(seconds)) delivery.observe(Math.max(0, seconds));
    },
    countSockets(read) {
      sockets = read;
    },
    countWaitingJobs(read) {
      waitingSources.push(read);
    },
    countPool(read) {
      if (!pool) poolGauges();
      pool = read;
    },
  };
}

/** Compares a bearer token with the configured one in constant time (both hashed to the same length first). */
function sameToken(sent: string, expected: string): boolean {
  const a = createHash("sha256").update(sent).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Times every answered request, and serves GET /metrics to a scraper holding the token. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook("onResponse", async (req, reply) => {
    metrics.request(req.method, req.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get("/metrics", {
    // The scraper's own bearer token, checked here; not a member's session.
    config: { access: "public" },
    schema: { hide: true },
    handler: async (req, reply) => {
      if (!token) throw new AppError("NOT_FOUND", "Not found");
      const header = req.headers.authorization ?? "";
      const sent = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
      if (!sent || !sameToken(sent, token)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        throw new AppError("UNAUTHORIZED", "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.");
      }
      reply.header("content-type", metrics.registry.contentType);
      reply.header("cache-control", "no-store");
      return metrics.registry.metrics();
    },
  });
}

declare module "fastify" {
  interface FastifyInstance {
    metrics: Metrics;
  }
}
