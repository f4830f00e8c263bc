import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import PgBoss from "pg-boss";
import { CONTACT_ROLE, type Database, type Queryable, REQUEST_ROLE } from "./db.ts";
import type { Mailer, MailMessage } from "./mail.ts";
import type { Metrics } from "./metrics.ts";

/**
 * Background jobs on pg-boss, in the application's own database (PGlite or PostgreSQL): work that must not hold up
 * or fail a request, such as sending mail, is enqueued in the request's transaction and done by a worker in this
 * process, with retries and backoff. See docs/decisions/2026-11-23-job-queue.md.
 */

/** A named queue and what its jobs carry; T is the job's data. */
export interface JobQueue<T> {
  name: string;
  /** Attempts after the first one. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff each later wait roughly doubles. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** An attempt still running after this long counts as failed (a crashed worker's job gets retried). */
  expireInSeconds: number;
  /** Keeps T in the type; never set. */
  readonly dataType?: T;
}

export interface JobAttempt {
  jobId: string;
  /** 1 for the first attempt. */
  number: number;
  /** No retry follows if this attempt fails. */
  last: boolean;
}

export type JobHandler<T> = (data: T, attempt: JobAttempt) => Promise<void>;

export interface Jobs {
  /** Registers the worker of a queue; before start(). */
  work<T extends object>(queue: JobQueue<T>, handler: JobHandler<T>): void;
  /**
   * Runs a queue's job on a cron schedule (UTC, minute precision), with empty data; before start(). The queue needs a
   * worker. pg-boss keeps the schedule in the database, so with several instances the job still runs once a time.
   */
  schedule<T extends object>(queue: JobQueue<T>, cron: string): void;
  /**
   * Enqueues a job through db: pass the request's transaction, so the job exists only if the request's work commits,
   * and so nothing touches the outer handle while that transaction is open (PGlite has one connection).
   */
  send<T extends object>(db: Queryable, queue: JobQueue<T>, data: T): Promise<void>;
  /** Sends an email from a worker, retrying while the mail server refuses or cannot be reached. */
  sendMail(db: Queryable, message: MailMessage): Promise<void>;
  /** Jobs created or waiting for a retry and not yet taken, by queue (every queue with a worker here, 0 included). */
  waiting(): Promise<Record<string, number>>;
  start(): Promise<void>;
  /** Stops taking jobs and waits (up to a few seconds) for the running ones; unfinished ones are retried later. */
  stop(): Promise<void>;
}

export interface JobsOptions {
  /** The PostgreSQL schema of the queue's tables; tests sharing one database each use their own. */
  schema?: string;
  pollingIntervalSeconds?: number;
  /** How long stop() waits for running jobs before handing them back to the queue (failed, so retried); 30 s. */
  stopTimeoutMs?: number;
  /** Overrides the heartbeat, the expiry and the maintenance interval on PostgreSQL (tests use short ones). */
  liveness?: { heartbeatSeconds: number; expirySeconds: number; maintenanceSeconds: number };
  /** Overrides the mail queue's retry timing (tests use short waits). */
  mailRetry?: Partial<Pick<JobQueue<MailMessage>, "retryLimit" | "retryDelaySeconds">>;
}

export const DEFAULT_JOBS_SCHEMA = "pgboss";

/**
 * Mail: 8 retries from 10 s with backoff spread over about 40 minutes, enough to ride out a mail server restart. A
 * send cannot outlast its job (the SMTP timeouts in mail.ts end it within 40 s), so a job still active after a minute
 * belongs to an instance that died, and another takes it over (MAINTENANCE_SECONDS).
 */
const MAIL_QUEUE: JobQueue<MailMessage> = {
  name: "send-mail",
  retryLimit: 8,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 60,
};

/** The mail queue with the retry timing a test chose. */
function mailQueueWith(retry: JobsOptions["mailRetry"]): JobQueue<MailMessage> {
  return {
    ...MAIL_QUEUE,
    retryLimit: retry?.retryLimit ?? MAIL_QUEUE.retryLimit,
    retryDelaySeconds: retry?.retryDelaySeconds ?? MAIL_QUEUE.retryDelaySeconds,
  };
}

/**
 * How often each instance looks for jobs whose instance died with them (past their queue's expiry) and hands them
 * back to the queue: a crashed instance's mail is sent by another within about a minute and a quarter.
 */
const MAINTENANCE_SECONDS = 15;

/**
 * On PostgreSQL, where several instances share the queue, a running job's instance says so every HEARTBEAT_SECONDS
 * by moving the job's start time to where its expiry falls LIVE_EXPIRY_SECONDS ahead (its queue's expireInSeconds
 * stays the bound on how long it may run, which pg-boss also enforces in the worker). So a dead instance's jobs, an
 * import or a rule run as much as a mail, pass their expiry within a minute of its last beat and another instance
 * takes them over at its next maintenance. The embedded database has one instance (the data-dir lock): no beats.
 */
const HEARTBEAT_SECONDS = 15;
const LIVE_EXPIRY_SECONDS = 60;
const LIVENESS: Required<JobsOptions>["liveness"] = {
  heartbeatSeconds: HEARTBEAT_SECONDS,
  expirySeconds: LIVE_EXPIRY_SECONDS,
  maintenanceSeconds: MAINTENANCE_SECONDS,
};

const SAFE_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** pg-boss sends its statements as text with $1..$n; this rebuilds one as a drizzle query so a transaction can run it. */
export function toDrizzleSql(text: string, values: unknown[] = []): SQL {
  const parts: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    const index = Number(match[1]) - 1;
    if (index < 0 || index >= values.length)
      throw new Error(`SQL refers to $${match[1]} but has ${values.length} values`);
    parts.push(sql.raw(text.slice(last, match.index)), sql`${sql.param(values[index])}`);
    last = match.index + match[0].length;
  }
  parts.push(sql.raw(text.slice(last)));
  return sql.join(parts);
}

function executorFor(db: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = (await db.execute(toDrizzleSql(text, values))) as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/**
 * Runs work again when another instance was doing the same at once: a concurrent grant ("tuple concurrently updated"),
 * or two instances creating one queue's partition, which can deadlock (40P01) or find it created under them; the
 * second attempt sees the queue there.
 */
async function retryConcurrent<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: string }).code;
      const concurrent =
        (code === "XX000" && /concurrently updated/.test(String(err))) ||
        code === "40P01" ||
        code === "23505" ||
        code === "42P07";
      if (!concurrent || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
    }
  }
}

/** A failed attempt: a warning while retries remain, an error (and the failed-jobs metric) after the last one. */
function logFailure(
  log: FastifyBaseLogger,
  queue: string,
  attempt: JobAttempt,
  err: unknown,
  metrics?: Pick<Metrics, "jobFailed">,
): void {
  const fields = {
    job: attempt.jobId,
    queue,
    attempt: attempt.number,
    err: err instanceof Error ? err.message : String(err),
  };
  if (!attempt.last) {
    log.warn(fields, "job failed, will retry");
    return;
  }
  metrics?.jobFailed(queue);
  log.error(fields, "job failed for good");
}

export function createJobs(
  database: Database,
  mailer: Mailer,
  log: FastifyBaseLogger,
  options: JobsOptions = {},
  metrics?: Pick<Metrics, "jobFailed">,
): Jobs {
  const schema = options.schema ?? DEFAULT_JOBS_SCHEMA;
  if (!SAFE_SCHEMA.test(schema)) throw new Error(`Invalid job queue schema name: ${schema}`);
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 1;
  const liveness = options.liveness ?? LIVENESS;
  const mailQueue = mailQueueWith(options.mailRetry);
  const workers = new Map<string, { queue: JobQueue<object>; handler: JobHandler<object> }>();
  const schedules = new Map<string, string>();
  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;
  /**
   * Set once stop() has returned. A worker that was fetching or finishing a job as the queue stopped can still reach
   * for the database afterwards (pg-boss completes the job a moment later); by then the pool may be closed (or, in
   * tests, the queue's schema dropped), so such a statement is not run: the job expires and runs again, as a job
   * interrupted by a crash does.
   */
  let stopped = false;
  const queueSql = async (text: string, values?: unknown[]) => {
    if (stopped) return notRun(text);
    return database.executeSql(text, values);
  };

  /** pg-boss's tables (migrated by start), the request roles' rights on them, and every queue with its settings. */
  async function prepareQueues(instance: PgBoss): Promise<void> {
    await instance.start();
    // Requests enqueue inside their tenant transaction, as the request role: it may add jobs and read queue settings,
    // and read back only the new job's id, never other jobs' data.
    // A contact's transactions (the portal, the chat widget) enqueue the jobs of the events they emit the same way.
    // Instances starting at once grant at once, and PostgreSQL refuses the second concurrent change of one catalog row
    // ("tuple concurrently updated"): the grant is tried again.
    for (const role of [REQUEST_ROLE, CONTACT_ROLE]) {
      await retryConcurrent(() =>
        database.executeSql(
          `GRANT USAGE ON SCHEMA ${schema} TO ${role};
         GRANT SELECT ON ${schema}.queue TO ${role};
         GRANT INSERT, SELECT (id) ON ${schema}.job TO ${role};`,
        ),
      );
    }
    for (const { queue } of workers.values()) {
      const settings = {
        retryLimit: queue.retryLimit,
        retryDelay: queue.retryDelaySeconds,
        retryBackoff: queue.retryBackoff,
        expireInSeconds: queue.expireInSeconds,
      };
      await retryConcurrent(() => instance.createQueue(queue.name, { name: queue.name, ...settings }));
      await retryConcurrent(() => instance.updateQueue(queue.name, { name: queue.name, ...settings }));
    }
  }

  /** While a job runs, keeps its expiry liveness.expirySeconds ahead: it expires only once this instance is gone. */
  function heartbeat(queueName: string, jobId: string): NodeJS.Timeout {
    const beat = () =>
      queueSql(
        `UPDATE ${schema}.job SET started_on = now() - expire_in + make_interval(secs => $3)
         WHERE name = $1 AND id = $2 AND state = 'active'`,
        [queueName, jobId, liveness.expirySeconds],
      ).catch((err: unknown) => log.warn({ err, job: jobId }, "job heartbeat not recorded"));
    void beat();
    const timer = setInterval(beat, liveness.heartbeatSeconds * 1000);
    timer.unref();
    return timer;
  }

  async function runStart() {
    const instance = new PgBoss({
      db: { executeSql: queueSql },
      schema,
      migrate: true,
      supervise: true,
      maintenanceIntervalSeconds: liveness.maintenanceSeconds,
      // Cron only when a feature asked for a schedule (billing's lifecycle jobs do).
      schedule: schedules.size > 0,
    });
    instance.on("error", (err) => log.error({ err }, "job queue error"));
    // Instances starting at once on a new database take turns at creating the queue's tables and queues: at the same
    // time they wait on each other's catalog locks and retry for longer than one after the other takes.
    await database.exclusive(`cove:jobs-start:${schema}`, () => prepareQueues(instance));
    for (const { queue, handler } of workers.values()) {
      const cron = schedules.get(queue.name);
      if (cron) await instance.schedule(queue.name, cron, {}, { tz: "UTC" });
      let workerId = "";
      workerId = await instance.work<object>(
        queue.name,
        { batchSize: 1, pollingIntervalSeconds, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          // pg-boss waits a polling interval after every fetch; while jobs keep coming, fetch the next one at once.
          instance.notifyWorker(workerId);
          const attempt = { jobId: job.id, number: job.retryCount + 1, last: job.retryCount >= job.retryLimit };
          const beat = database.kind === "postgres" ? heartbeat(queue.name, job.id) : null;
          try {
            await handler(job.data, attempt);
          } catch (err) {
            logFailure(log, queue.name, attempt, err, metrics);
            throw err;
          } finally {
            if (beat) clearInterval(beat);
          }
        },
      );
    }
    boss = instance;
  }

  const jobs: Jobs = {
    work(queue, handler) {
      if (boss || starting) throw new Error(`Register the worker of ${queue.name} before the queue starts`);
      workers.set(queue.name, { queue, handler: handler as JobHandler<object> });
    },

    schedule(queue, cron) {
      if (boss || starting) throw new Error(`Schedule ${queue.name} before the queue starts`);
      schedules.set(queue.name, cron);
    },

    async send(db, queue, data) {
      if (!boss) throw new Error("The job queue is not running");
      const id = await boss.send(queue.name, data, { db: executorFor(db) });
      // pg-boss answers null, rather than failing, when the queue does not exist.
      if (!id) throw new Error(`No job queue named ${queue.name}`);
    },

    sendMail: (db, message) => jobs.send(db, mailQueue, message),

    async waiting() {
      const counts: Record<string, number> = Object.fromEntries([...workers.keys()].map((name) => [name, 0]));
      if (!boss) return counts;
      // pg-boss's states are an enum in this order: created, retry, active, completed, cancelled, failed.
      const { rows } = await queueSql(
        `SELECT name, count(*)::int AS n FROM ${schema}.job WHERE state < 'active' GROUP BY name`,
      );
      for (const row of rows) {
        const name = String(row.name);
        if (name in counts) counts[name] = Number(row.n);
      }
      return counts;
    },

    start() {
      stopped = false;
      starting ??= runStart();
      return starting;
    },

    async stop() {
      await starting?.catch(() => {});
      const running = boss;
      boss = null;
      starting = null;
      // Graceful: the handlers at work finish first (pg-boss would otherwise give up on them after the timeout, and
      // their completion would then reach a closed pool or, in tests, a dropped schema). A handler is short (a mail, a
      // webhook, a batch of an import); half a minute is the bound a process manager's stop usually allows.
      // Those still running then are failed by pg-boss ("shut down while active"): retried, by this instance or another.
      await running?.stop({ graceful: true, timeout: options.stopTimeoutMs ?? 30_000, close: false });
      if (running) stopped = true;
    },
  };

  // Once sent, a message's body (which may hold a single-use link) is dropped from the queue's tables, so only the
  // hashes of such links stay in the database. A message that failed for good is dropped too: its link can be resent.
  jobs.work(mailQueue, async (message, attempt) => {
    try {
      await mailer.send(message);
    } catch (err) {
      if (attempt.last) await forgetBody(attempt.jobId);
      throw err;
    }
    await forgetBody(attempt.jobId);
  });

  async function forgetBody(jobId: string) {
    await database.executeSql(
      `UPDATE ${schema}.job SET data = jsonb_build_object('to', data->'to', 'subject', data->'subject')
       WHERE name = $1 AND id = $2`,
      [mailQueue.name, jobId],
    );
  }

  return jobs;
}

declare module "fastify" {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * What a statement not run after stop answers: what it answers when it changes nothing. pg-boss's job commands
 * (complete, fail, cancel...) end in "SELECT COUNT(*) FROM results" and read that one row's count; everything else
 * (a fetch) gets no rows.
 */
export function notRun(text: string): { rows: Record<string, unknown>[]; rowCount: number } {
  return /select\s+count\(\*\)\s+from\s+results\s*$/i.test(text)
    ? { rows: [{ count: "0" }], rowCount: 1 }
    : { rows: [], rowCount: 0 };
}
