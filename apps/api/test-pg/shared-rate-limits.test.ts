import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { openDatabase } from "../src/platform/db.ts";
import { purgeRateLimitCounters } from "../src/platform/rate-limit-store.ts";
import { createTestApp, newAddress, type TestApp, unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";

/**
 * The routes' request limits behind a load balancer (docs/decisions/2026-12-01-shared-rate-limits.md): two app
 * instances on one PostgreSQL count each client together, so a client gets a route's limit once, not once per
 * instance. The instances are two apps in this process, each with its own connection pool and its own plugin store,
 * sharing nothing but the database (and the counters' scope, as one deployment's instances do).
 */
if (!process.env.TEST_DATABASE_URL) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

/** POST /api/auth/forgot-password: 5 per address in 15 minutes (auth.routes.ts). */
const FORGOT_MAX = 5;
/** A limit of the test's own with a window short enough to watch it end. */
const SHORT = { max: 3, windowMs: 1500 };

const addShortRoute = (app: FastifyInstance) =>
  app.get("/test/short-limit", { config: { rateLimit: { max: SHORT.max, timeWindow: SHORT.windowMs } } }, async () => ({
    ok: true,
  }));

const scope = `${unique()} `;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  [one, two] = await Promise.all([
    createTestApp({ rateLimitScope: scope, setup: addShortRoute }),
    createTestApp({ rateLimitScope: scope, setup: addShortRoute }),
  ]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

const forgot = (t: TestApp, address: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/forgot-password",
    payload: { email: `nobody-${unique()}@example.com` },
    remoteAddress: address,
  });

const short = (t: TestApp, address: string) =>
  t.app.inject({ method: "GET", url: "/test/short-limit", remoteAddress: address });

const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);

/** The counts stored for an address (the plugin keys a client by its IPv6 /64), one per route it used. */
async function counted(address: string): Promise<number[]> {
  const { rows } = await one.database.executeSql(
    "SELECT count FROM rate_limit_counters WHERE starts_with(key, $1) AND key LIKE '% ' || $2 ORDER BY key",
    [scope, normalizeIP(address)],
  );
  return rows.map((r) => Number((r as { count: number }).count));
}

describe("rate limits shared by two instances on one PostgreSQL", () => {
  it("refuses the sixth password reset from one address however the requests are spread over the instances", async () => {
    const address = newAddress();
    const answers: LightMyRequestResponse[] = [];
    // Alternating, as a round-robin load balancer would: 1, 2, 1, 2, 1 (five allowed), then one more on each.
    for (let i = 0; i < FORGOT_MAX + 2; i++) answers.push(await forgot(i % 2 === 0 ? one : two, address));
    expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers[5]?.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(answers[5]?.headers["retry-after"])).toBeGreaterThan(14 * 60);
    expect(answers[4]?.headers["x-ratelimit-remaining"]).toBe("0");

    // The same count as one instance alone: another address, all on instance 1, is refused at the same request.
    const alone: LightMyRequestResponse[] = [];
    const other = newAddress();
    for (let i = 0; i < FORGOT_MAX + 2; i++) alone.push(await forgot(one, other));
    expect(statuses(alone)).toEqual(statuses(answers));
  });

  it("counts each route on its own: a used-up limit on one route leaves the address's others alone", async () => {
    const address = newAddress();
    for (let i = 0; i < FORGOT_MAX + 1; i++) await forgot(i % 2 === 0 ? one : two, address);
    expect((await forgot(two, address)).statusCode).toBe(429);
    // The reset link check (30 in 15 minutes) from the same address is still answered on its merits.
    const check = await two.app.inject({
      method: "POST",
      url: "/api/auth/reset-password/check",
      payload: { token: "not-a-real-token" },
      remoteAddress: address,
    });
    expect(check.statusCode).not.toBe(429);
    expect(check.statusCode).toBeLessThan(500);
    expect(await counted(address)).toHaveLength(2);
  });

  it("counts 20 requests sent at once to both instances exactly: 5 pass, 15 are refused, none fails", async () => {
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forgot(i % 2 === 0 ? one : two, address)));
    const got = statuses(answers);
    expect(got.filter((s) => s === 200)).toHaveLength(FORGOT_MAX);
    expect(got.filter((s) => s === 429)).toHaveLength(20 - FORGOT_MAX);
    expect(await counted(address)).toEqual([20]);
  });

  it("starts a new window once the last one has ended, on both instances", async () => {
    const address = newAddress();
    const first = [];
    for (let i = 0; i < SHORT.max + 1; i++) first.push(await short(i % 2 === 0 ? one : two, address));
    expect(statuses(first)).toEqual([200, 200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, SHORT.windowMs + 200));
    const second = [];
    for (let i = 0; i < SHORT.max + 1; i++) second.push(await short(i % 2 === 0 ? two : one, address));
    expect(statuses(second)).toEqual([200, 200, 200, 429]);
    expect(second[0]?.headers["x-ratelimit-remaining"]).toBe(String(SHORT.max - 1));
  });

  it("keeps instances of another deployment (another scope) apart", async () => {
    const address = newAddress();
    for (let i = 0; i < SHORT.max + 1; i++) await short(one, address);
    const elsewhere = await createTestApp({ setup: addShortRoute });
    try {
      expect((await short(elsewhere, address)).statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
  });

  it("purges the counters whose window has ended, and only those", async () => {
    const ended = newAddress();
    const live = newAddress();
    await short(one, ended);
    await forgot(two, live);
    expect(await counted(ended)).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, SHORT.windowMs + 200));
    expect(await purgeRateLimitCounters(one.database.executeSql)).toBeGreaterThanOrEqual(1);
    expect(await counted(ended)).toEqual([]);
    expect(await counted(live)).toEqual([1]);
  });
});

describe("when the counters cannot be written", () => {
  it("lets requests through (fails open) and logs a warning, never a 5xx", async () => {
    const fresh = await freshPostgresDatabase(`limits_${unique()}`);
    const database = await openDatabase({ kind: "postgres", url: fresh.url });
    const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-outbox-"));
    const warnings: string[] = [];
    const app = await buildApp({
      database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir },
      publicUrl: "http://cove.test",
      logger: {
        level: "warn",
        stream: { write: (line: string) => warnings.push(JSON.parse(line).msg as string) },
      },
    });
    addShortRoute(app);
    try {
      await app.ready();
      await database.executeSql("DROP TABLE rate_limit_counters");
      const address = newAddress();
      const answers = [];
      for (let i = 0; i < SHORT.max + 2; i++) answers.push(await short({ app } as TestApp, address));
      expect(statuses(answers)).toEqual([200, 200, 200, 200, 200]);
      expect(warnings.filter((m) => m.startsWith("rate limit not counted"))).toHaveLength(SHORT.max + 2);
    } finally {
      await app.close();
      await database.close();
      await fresh.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
