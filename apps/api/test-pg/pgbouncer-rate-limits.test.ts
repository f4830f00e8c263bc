import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { normalizeIP } from "@fastify/rate-limit";
import type { LightMyRequestResponse } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { newAddress, type Org, registerOrg, unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";
import { type PgBouncer, startPgBouncer } from "../test/support/pgbouncer.ts";

/**
 * The routes' request limits (docs/decisions/2026-12-01-shared-rate-limits.md) as docs/deploy.md runs the app: two
 * instances whose requests go through one PgBouncer in transaction mode, on one database. Each counted request's
 * upsert then runs on whichever server connection is free, between other requests' confined transactions (their role
 * and organization set for the transaction alone), so a setting or a named statement left behind on a connection
 * would show up here as a failed upsert. The store fails open (the request passes uncounted, with a warning), so a
 * failure would show as a wrong count and a warning, not as an error: both are checked.
 */
if (!process.env.TEST_DATABASE_URL) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

/** POST /api/auth/forgot-password: 5 per address in 15 minutes (auth.routes.ts). */
const FORGOT_MAX = 5;
/** The pooler's server connections: fewer than the two apps' pools, so every connection serves both instances. */
const POOL_SIZE = 4;

interface Instance {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  warnings: string[];
}

let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let bouncer: PgBouncer;
let dir: string;
let one: Instance;
let two: Instance;

async function instance(): Promise<Instance> {
  const database = await openDatabase({ kind: "postgres", url: bouncer.url, directUrl: fresh.url });
  const warnings: string[] = [];
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(dir, unique()) },
    publicUrl: "http://cove.test",
    // No scope: one deployment's instances, as deployed (the database is this file's own).
    logger: {
      level: "warn",
      stream: { write: (line: string) => warnings.push(JSON.parse(line).msg as string) },
    },
  });
  await app.ready();
  return { app, database, warnings };
}

beforeAll(async () => {
  fresh = await freshPostgresDatabase(`pgb_limits_${unique()}`);
  bouncer = await startPgBouncer(fresh.url, POOL_SIZE);
  dir = mkdtempSync(path.join(tmpdir(), "cove-pgb-limits-"));
  // One after the other: both would migrate at once otherwise (they take turns, but the second waits for the lock).
  one = await instance();
  two = await instance();
}, 120_000);

afterAll(async () => {
  await one?.app.close();
  await two?.app.close();
  await one?.database.close();
  await two?.database.close();
  await bouncer?.stop();
  await fresh?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const forgot = (at: Instance, address: string) =>
  at.app.inject({
    method: "POST",
    url: "/api/auth/forgot-password",
    payload: { email: `nobody-${unique()}@example.com` },
    remoteAddress: address,
  });

const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);

/**
 * What both instances logged of a failed statement on the route: the store's warning for a request it could not
 * count, and the route's own error when the reset could not be queued (it answers 200 either way).
 */
const failuresLogged = () =>
  [...one.warnings, ...two.warnings].filter(
    (m) => m.startsWith("rate limit not counted") || m === "password reset email failed",
  );

/** The count stored for an address on the password-reset route (read straight from PostgreSQL). */
async function counted(address: string): Promise<number[]> {
  const { rows } = await one.database.executeSql("SELECT count FROM rate_limit_counters WHERE key = $1", [
    `POST /api/auth/forgot-password ${normalizeIP(address)}`,
  ]);
  return rows.map((r) => Number((r as { count: number }).count));
}

describe("rate limits of two instances through one PgBouncer in transaction mode", () => {
  it("refuses the sixth password reset from one address, spread over both instances, with the route's message", async () => {
    const address = newAddress();
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < FORGOT_MAX + 2; i++) answers.push(await forgot(i % 2 === 0 ? one : two, address));
    expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers[5]?.json()).toMatchObject({
      code: "RATE_LIMITED",
      error: expect.stringMatching(/^Too many requests\. Please try again in 1[45] minutes\.$/),
    });
    expect(Number(answers[6]?.headers["retry-after"])).toBeGreaterThan(14 * 60);
    expect(await counted(address)).toEqual([FORGOT_MAX + 2]);
    expect(failuresLogged()).toEqual([]);
  });

  it("counts limited requests sent at once, beside confined requests, exactly and without a 5xx", async () => {
    const [orgOne, orgTwo] = [await registerOrg(one.app), await registerOrg(two.app)];
    const list = (at: Instance, org: Org) =>
      at.app.inject({ method: "GET", url: "/api/tickets", headers: { authorization: `Bearer ${org.token}` } });
    const hot = newAddress();
    // 10 other addresses, 3 requests each: under their limit, every one passes and is counted.
    const others = Array.from({ length: 10 }, () => newAddress());
    const sent = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => forgot(i % 2 === 0 ? one : two, hot)),
      ...others.flatMap((address, i) => [
        forgot(one, address),
        forgot(two, address),
        forgot(i % 2 ? one : two, address),
      ]),
      // Requests that set their role and organization for their transaction, on the same server connections.
      ...Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? list(one, orgOne) : list(two, orgTwo))),
    ]);
    const got = statuses(sent);
    expect(got.filter((s) => s >= 500)).toEqual([]);
    const hotAnswers = got.slice(0, 40);
    expect(hotAnswers.filter((s) => s === 200)).toHaveLength(FORGOT_MAX);
    expect(hotAnswers.filter((s) => s === 429)).toHaveLength(40 - FORGOT_MAX);
    expect(got.slice(40)).toEqual(got.slice(40).map(() => 200));
    expect(await counted(hot)).toEqual([40]);
    for (const address of others) expect(await counted(address)).toEqual([3]);
    expect(failuresLogged()).toEqual([]);
  });

  it("leaves every pooled server connection as it found it: no role, organization or named statement", async () => {
    // One request of each kind first, so every path has run on the pooler.
    const org = await registerOrg(one.app);
    await forgot(two, newAddress());
    await one.app.inject({ method: "GET", url: "/api/tickets", headers: { authorization: `Bearer ${org.token}` } });
    // As many clients as the pooler has server connections, each holding one in an open transaction: together they
    // see every server connection the apps' requests ran on.
    const clients = Array.from({ length: POOL_SIZE }, () => new pg.Client({ connectionString: bouncer.url }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      await Promise.all(clients.map((c) => c.query("BEGIN")));
      const seen = await Promise.all(
        clients.map(
          async (c) =>
            (
              await c.query(
                `SELECT pg_backend_pid() AS pid, current_user AS "user", current_setting('role') AS role,
                        coalesce(current_setting('app.org_id', true), '') AS org,
                        coalesce(current_setting('app.contact_id', true), '') AS contact,
                        (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
                        (SELECT count(*)::int FROM pg_cursors) AS cursors,
                        (SELECT coalesce(array_agg(name ORDER BY name), '{}') FROM pg_settings
                          WHERE source = 'session' AND name IN ('jit', 'work_mem', 'search_path', 'statement_timeout',
                            'lock_timeout', 'default_transaction_read_only', 'transaction_isolation')) AS changed`,
              )
            ).rows[0],
        ),
      );
      await Promise.all(clients.map((c) => c.query("COMMIT")));
      expect(new Set(seen.map((s) => s.pid)).size).toBe(POOL_SIZE);
      for (const session of seen) {
        expect(session).toMatchObject({
          user: decodeURIComponent(new URL(fresh.url).username || "postgres"),
          role: "none",
          org: "",
          contact: "",
          prepared: 0,
          cursors: 0,
          changed: [],
        });
      }
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
