import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { createJobs, type JobQueue } from "../src/platform/jobs.ts";
import { unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";

/**
 * Several instances on one PostgreSQL (docs/deploy.md): a running job's instance keeps it alive with a heartbeat, so
 * a job longer than the expiry runs once; a job whose instance died is taken over once the expiry has passed.
 * Short timings here (1 s beats, 3 s expiry, 1 s maintenance) stand for Cove's 15 s, 60 s and 15 s.
 */
if (!process.env.TEST_DATABASE_URL) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const liveness = { heartbeatSeconds: 1, expirySeconds: 3, maintenanceSeconds: 1 };
const noMail = { send: async () => {}, close: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function instance(database: Database, schema: string, queue: JobQueue<{ n: number }>, work: () => Promise<void>) {
  const jobs = createJobs(database, noMail, pino({ level: "silent" }), {
    schema,
    liveness,
    pollingIntervalSeconds: 0.5,
  });
  jobs.work(queue, work);
  await jobs.start();
  cleanups.push(() => jobs.stop());
  return jobs;
}

describe("jobs on several instances", () => {
  it("keeps a running job's expiry a few seconds ahead, and runs a job longer than that once", async () => {
    const fresh = await freshPostgresDatabase(`liveness_${unique()}`);
    cleanups.push(() => fresh.drop());
    const database = await openDatabase({ kind: "postgres", url: fresh.url });
    cleanups.push(() => database.close());
    const queue: JobQueue<{ n: number }> = {
      name: "long-job",
      retryLimit: 3,
      retryDelaySeconds: 1,
      retryBackoff: false,
      expireInSeconds: 600,
    };
    let runs = 0;
    const jobs = await instance(database, "pgboss_live", queue, async () => {
      runs++;
      await sleep(8_000);
    });
    await jobs.send(database.db, queue, { n: 1 });
    while (runs === 0) await sleep(100);
    // Five seconds into the run, its expiry is still a few seconds ahead (its queue would allow ten minutes).
    await sleep(5_000);
    const ahead = await database.executeSql(
      "select extract(epoch from started_on + expire_in - now())::float as seconds from pgboss_live.job where name = $1",
      [queue.name],
    );
    const seconds = Number(ahead.rows[0]?.seconds);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(3);
    for (let i = 0; i < 200; i++) {
      const { rows } = await database.executeSql("select state from pgboss_live.job where name = $1", [queue.name]);
      if (rows[0]?.state === "completed") break;
      await sleep(100);
    }
    const { rows } = await database.executeSql("select state, retry_count from pgboss_live.job where name = $1", [
      queue.name,
    ]);
    expect(rows).toEqual([{ state: "completed", retry_count: 0 }]);
    expect(runs).toBe(1);
  }, 40_000);

  it("hands a dead instance's job to another once its expiry has passed", async () => {
    const fresh = await freshPostgresDatabase(`takeover_${unique()}`);
    cleanups.push(() => fresh.drop());
    const database = await openDatabase({ kind: "postgres", url: fresh.url });
    cleanups.push(() => database.close());
    const queue: JobQueue<{ n: number }> = {
      name: "import",
      retryLimit: 3,
      retryDelaySeconds: 1,
      retryBackoff: false,
      expireInSeconds: 900,
    };
    let runs = 0;
    const jobs = await instance(database, "pgboss_take", queue, async () => {
      runs++;
    });
    // The job as an instance killed mid-run leaves it: active, its last heartbeat (3 s of life) 10 s ago.
    await database.db.transaction(async (tx) => {
      await jobs.send(tx, queue, { n: 1 });
      await tx.execute(
        sql.raw(
          "update pgboss_take.job set state = 'active', started_on = now() - interval '10 seconds' - expire_in + interval '3 seconds' where name = 'import'",
        ),
      );
    });
    // Its queue allows 15 minutes of work; the beats' expiry (3 s here, 60 s in Cove) is what a dead instance leaves.
    const started = Date.now();
    while (runs === 0 && Date.now() - started < 20_000) await sleep(100);
    expect(runs).toBe(1);
  }, 40_000);
});
