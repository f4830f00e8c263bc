import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from "@cove/contract/webhooks.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows } from "../../platform/db.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { Secrets } from "../../platform/secrets.ts";
import { type OutboundOptions, type PostResult, postJson } from "./webhooks.http.ts";
import type { DeliveryPayload } from "./webhooks.payloads.ts";
import { signatureHeader } from "./webhooks.signature.ts";
import { slackMessage } from "./webhooks.slack.ts";

/**
 * The webhooks worker: deliveries are rows (webhook_deliveries) written in the transaction of their change, so they
 * exist exactly when it commits and survive a restart. Every instance polls for due ones (and looks at once when an
 * event commits), claiming a batch with FOR UPDATE SKIP LOCKED and a lease (a crashed worker's claim lapses), never a
 * delivery while an earlier one of the same ticket or chat to the same endpoint is still pending. A failed attempt
 * waits RETRY_SCHEDULE's next step; after the last one the delivery fails for good, the endpoint is turned off and
 * the organization's admins get an email.
 */

/** Seconds before each retry: about 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h: about 24 hours in all. */
export const RETRY_SCHEDULE_SECONDS = [10, 60, 300, 1800, 7200, 18000, 28800, 28800];

export interface WorkerOptions {
  outbound: OutboundOptions;
  secrets: Secrets;
  publicUrl: string;
  retrySchedule: readonly number[];
  pollMs: number;
  batchSize: number;
  /** Counts deliveries that failed at every retry (cove_jobs_failed_total{queue="webhooks"}). */
  metrics?: Pick<Metrics, "jobFailed">;
}

/** The queue name the webhooks worker's deliveries have in the job metrics. */
export const WEBHOOKS_QUEUE_LABEL = "webhooks";

/** Deliveries due now or later, not yet done (cove_jobs_waiting{queue="webhooks"}), of every organization. */
export async function pendingDeliveries(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`,
  );
  return row?.n ?? 0;
}

interface Claimed {
  id: string;
  organization_id: string;
  webhook_id: string;
  payload: DeliveryPayload;
  attempts: number;
  kind: "webhook" | "slack";
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | string | null;
}

interface Outcome {
  id: string;
  status: "delivered" | "pending" | "failed";
  code: number | null;
  ms: number;
  resp: string | null;
  err: string | null;
  wait: number;
}

export interface WebhooksWorker {
  start(): void;
  /** Looks for due deliveries now (a committed event may have added some). */
  wake(): void;
  stop(): Promise<void>;
  /** One pass: claims and sends what is due; answers how many were attempted (tests, the benchmark). */
  runOnce(): Promise<number>;
}

export function createWorker(db: Db, jobs: Jobs, log: FastifyBaseLogger, opts: WorkerOptions): WebhooksWorker {
  let running = false;
  let loop: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let wakeUp: (() => void) | null = null;
  let again = false;
  /** A claim outlives the longest attempt, so nobody takes a delivery still in flight. */
  const leaseSeconds = Math.ceil(opts.outbound.timeoutMs / 1000) + 30;

  async function claim(): Promise<Claimed[]> {
    return queryRows<Claimed>(
      db,
      sql`update webhook_deliveries d
          set claimed_until = now() + make_interval(secs => ${leaseSeconds}), attempts = d.attempts + 1,
              last_attempt_at = now()
          from webhooks w
          where w.id = d.webhook_id and d.id in (
            select c.id from webhook_deliveries c join webhooks cw on cw.id = c.webhook_id and cw.enabled
            where c.status = 'pending' and c.next_attempt_at <= now()
              and (c.claimed_until is null or c.claimed_until < now())
              and (c.ordering_key is null or not exists (
                select 1 from webhook_deliveries e
                where e.webhook_id = c.webhook_id and e.ordering_key = c.ordering_key and e.status = 'pending'
                  and e.seq < c.seq))
            order by c.seq limit ${opts.batchSize}
            for update of c skip locked)
          returning d.id, d.organization_id, d.webhook_id, d.payload, d.attempts, w.kind, w.url, w.secret_sealed,
                    w.previous_secret_sealed, w.previous_secret_expires_at`,
    );
  }

  function request(d: Claimed): { body: string; headers: Record<string, string> } {
    if (d.kind === "slack") {
      return {
        body: JSON.stringify(slackMessage(d.payload, opts.publicUrl)),
        headers: { "Content-Type": "application/json", "User-Agent": "Cove-Webhooks/1" },
      };
    }
    const body = JSON.stringify(d.payload);
    const secrets = [opts.secrets.open(d.secret_sealed, d.webhook_id)];
    if (
      d.previous_secret_sealed &&
      d.previous_secret_expires_at &&
      new Date(d.previous_secret_expires_at) > new Date()
    ) {
      secrets.push(opts.secrets.open(d.previous_secret_sealed, d.webhook_id));
    }
    return {
      body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Cove-Webhooks/1",
        [SIGNATURE_HEADER]: signatureHeader(body, secrets, new Date()),
        [DELIVERY_ID_HEADER]: d.id,
      },
    };
  }

  async function attempt(d: Claimed): Promise<Outcome> {
    let result: PostResult;
    try {
      const { body, headers } = request(d);
      result = await postJson(d.url, body, headers, opts.outbound);
    } catch (err) {
      result = { status: null, durationMs: 0, response: null, error: `Could not sign: ${(err as Error).message}` };
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const wait = opts.retrySchedule[d.attempts - 1];
    const status = ok ? "delivered" : wait === undefined ? "failed" : "pending";
    return {
      id: d.id,
      status,
      code: result.status,
      ms: result.durationMs,
      resp: result.response,
      err: result.error,
      wait: wait ?? 0,
    };
  }

  /** The outcomes of a batch, in one statement (on the embedded database each statement is a commit to disk). */
  async function record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await db.execute(
      sql`update webhook_deliveries d
          set status = r.status, claimed_until = null, status_code = r.code, duration_ms = r.ms, response = r.resp,
              error = r.err, next_attempt_at = now() + make_interval(secs => r.wait)
          from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
               as r(id uuid, status text, code int, ms int, resp text, err text, wait float8)
          where d.id = r.id`,
    );
  }

  /** Every retry of a delivery failed: the endpoint is turned off and the admins told (once). */
  async function turnOff(d: Claimed): Promise<void> {
    await db.transaction(async (tx) => {
      const [off] = await queryRows<{ url: string }>(
        tx,
        sql`update webhooks set enabled = false, updated_at = now(),
                   disabled_reason = 'Turned off by Cove: a delivery failed at every retry for about 24 hours.'
            where id = ${d.webhook_id} and enabled returning url`,
      );
      if (!off) return;
      const admins = await queryRows<{ email: string; name: string }>(
        tx,
        sql`select u.email, o.name from users u join organizations o on o.id = u.organization_id
            where u.organization_id = ${d.organization_id} and u.role = 'admin' and u.status = 'active'`,
      );
      const link = `${opts.publicUrl.replace(/\/+$/, "")}/settings?tab=integrations`;
      for (const admin of admins) {
        await jobs.sendMail(tx, {
          to: admin.email,
          subject: "A webhook was turned off",
          text: `Cove could not deliver to ${off.url} for about 24 hours, so this ${d.kind === "slack" ? "Slack integration" : "webhook"} of ${admin.name} is now off.\n\nCheck the receiver, then turn it back on in Settings -> Integrations: ${link}\n`,
        });
      }
    });
    log.warn({ webhook: d.webhook_id }, "webhook turned off after failing deliveries");
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    const outcomes = await Promise.all(claimed.map(attempt));
    await record(outcomes);
    for (const [i, outcome] of outcomes.entries()) {
      const d = claimed[i];
      if (outcome.status === "failed" && d) {
        opts.metrics?.jobFailed(WEBHOOKS_QUEUE_LABEL);
        await turnOff(d).catch((err: unknown) => log.error({ err, webhook: d.webhook_id }, "webhook not turned off"));
      }
    }
    return claimed.length;
  }

  async function run(): Promise<void> {
    while (running) {
      let count = 0;
      again = false;
      try {
        count = await runOnce();
      } catch (err) {
        if (running) log.error({ err }, "webhooks worker pass failed");
      }
      if (!running) break;
      if (count > 0 || again) continue;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, opts.pollMs);
      });
      wakeUp = null;
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      again = true;
      if (timer) clearTimeout(timer);
      wakeUp?.();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
      loop = null;
    },
    runOnce,
  };
}

/** How long the delivery log keeps a delivery that is done (delivered or failed for good). */
export const DELIVERY_LOG_DAYS = 30;
const PURGE_QUEUE: JobQueue<object> = {
  name: "webhook-deliveries-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** Deletes done deliveries older than days, a few thousand at a time so no statement holds locks for long. */
export async function purgeDeliveries(db: Db, days = DELIVERY_LOG_DAYS): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`delete from webhook_deliveries where id in (
            select id from webhook_deliveries
            where status <> 'pending' and created_at < now() - make_interval(days => ${days}) limit 5000)
          returning id`,
    );
    total += rows.length;
    if (rows.length < 5000) return total;
  }
}

/** Purges the delivery log once a day (pg-boss runs the schedule once across instances). */
export function schedulePurge(jobs: Jobs, db: Db): void {
  jobs.work(PURGE_QUEUE, async () => {
    await purgeDeliveries(db);
  });
  jobs.schedule(PURGE_QUEUE, "37 3 * * *");
}
