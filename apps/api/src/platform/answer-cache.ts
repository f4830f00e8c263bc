import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { dataVersions } from "../db/schema/answer-cache.ts";
import { adminsOnly, enrolmentRequired, recordSessionChecked, sessionEnded } from "./auth.ts";
import { now } from "./clock.ts";
import type { Db, Queryable } from "./db.ts";
import { dataStateReader, type Principal } from "./tenancy.ts";

/**
 * Serialized answers of signed-in reads (ticket lists, searches, a ticket, the dashboard figures), so that asking the
 * same question again while nothing it shows has changed costs one small statement instead of the full work.
 *
 * Every key starts with the organization and its data version (data_versions, kept by triggers in the transaction of
 * every change; migration 0013), read in the same statement that checks the caller's session. A change commits with
 * its bump, so after it no request reads the old version again and the answers stored under it are never served;
 * they simply age out. An answer is always computed after the version it is stored under was read, so it can only be
 * newer than its key, never older. Several app processes on one PostgreSQL each keep their own cache and stay exact.
 *
 * An answer that changes with the clock alone (a due time passing) also says until when it holds (expireAnswer): it is
 * not served after that instant of the app's clock (platform/clock.ts, which tests move), nor stored if it has passed.
 *
 * Least recently used answers go first once the total size passes the budget; a budget of 0 turns the cache off.
 */
export interface AnswerCache {
  readonly enabled: boolean;
  get(key: string): Buffer | undefined;
  /** until: the last instant (epoch milliseconds of now()) the answer holds at; null: until the data changes. */
  set(key: string, body: Buffer, until?: number | null): void;
  /** Answers held, their total size in bytes, and how many were stored since the start: for tests and diagnostics. */
  stats(): { entries: number; bytes: number; stored: number };
}

/** A single answer larger than this share of the budget is not kept: it would push out many others. */
const MAX_SHARE = 1 / 16;

export function createAnswerCache(maxBytes: number): AnswerCache {
  if (maxBytes <= 0) return { enabled: false, get: () => undefined, set: () => {}, stats: () => ZERO };
  const entries = new LRUCache<string, Buffer>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes * MAX_SHARE,
    sizeCalculation: (body, key) => key.length * 2 + body.byteLength,
    // An entry with a ttl is stale once now() - its start > ttl, read from the app's clock at every look-up.
    perf: { now: () => now().getTime() },
    ttlResolution: 0,
  });
  let stored = 0;
  return {
    enabled: true,
    get: (key) => entries.get(key),
    set(key, body, until = null) {
      const ttl = until === null ? 0 : until - now().getTime();
      if (until !== null && ttl <= 0) return;
      entries.set(key, body, { ttl });
      if (entries.has(key)) stored++;
    },
    stats: () => ({ entries: entries.size, bytes: entries.calculatedSize, stored }),
  };
}

const ZERO = { entries: 0, bytes: 0, stored: 0 };

/** A route's part of the key: what, besides the organization's data, its answer depends on. */
export interface AnswerCacheConfig {
  /** The validated request's inputs that shape the answer; the caller's own id where "me" is involved. */
  key(req: FastifyRequest, who: Principal): readonly unknown[];
  /** The answer counts "today" or "this week" in the organization's time zone: it is kept for that day only. */
  daily?: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A signed-in GET whose answers are cached; see createAnswerCache. */
    answerCache?: AnswerCacheConfig;
  }
  interface FastifyRequest {
    /** Set when the answer was not in the cache: the key its serialized answer is stored under. */
    answerKey: string | null;
    /** Set when this request computes an answer that others may be waiting for. */
    answerFlight: Flight | null;
    /** Set by a handler whose answer changes with the clock alone: the last instant it holds at (expireAnswer). */
    answerUntil: Date | null;
  }
  interface FastifyInstance {
    answers: AnswerCache;
    /** "GET /api/..." of every route that declares answerCache: a test checks that what each reads is versioned. */
    cachedRoutes: readonly string[];
  }
}

/**
 * A cached route's handler whose answer will change at an instant without any write (a due time passes) states it
 * here: the answer is served from the cache up to that instant, and computed again after it.
 */
export function expireAnswer(req: FastifyRequest, until: Date | null): void {
  req.answerUntil = until;
}

/** A serialized answer, and the last instant it holds at (null: until the data changes). */
interface Landed {
  body: Buffer;
  until: number | null;
}

/** An answer being computed for a key, which other requests for the same key wait for instead of computing it too. */
interface Flight {
  key: string;
  answer: Promise<Landed | undefined>;
  /** Called once with the serialized answer, or undefined when it ended in an error (each waiter then computes). */
  land(landed: Landed | undefined): void;
}

/**
 * Serves the routes that declare answerCache. After access control has found the principal, one statement re-checks
 * the session and reads the organization's data version (readDataStates; the requests that arrive while one is
 * running share the next, so fifty clients need a few statements, not fifty); a stored answer under that version is
 * sent as it is. Otherwise the handler runs as usual (its own tenant transaction checks the session again) and the
 * answer, as the route's schema serialized it, is stored on the way out. When a change has just made every stored
 * answer out of date, the requests arriving together for the same key wait for the first one's answer rather than
 * each computing it.
 */
export function registerAnswerCache(app: FastifyInstance, db: Db, cache: AnswerCache): void {
  app.decorate("answers", cache);
  const cachedRoutes: string[] = [];
  app.decorate("cachedRoutes", cachedRoutes);
  app.addHook("onRoute", (route) => {
    if (route.config?.answerCache && route.method === "GET") cachedRoutes.push(`GET ${route.url}`);
  });
  app.decorateRequest("answerKey", null);
  app.decorateRequest("answerFlight", null);
  app.decorateRequest("answerUntil", null);
  if (!cache.enabled) return;
  const flights = new Map<string, Flight>();
  const readDataState = dataStateReader(db);

  const takeOff = (key: string): Flight => {
    let land: (landed: Landed | undefined) => void = () => {};
    const answer = new Promise<Landed | undefined>((resolve) => {
      land = resolve;
    });
    const flight: Flight = {
      key,
      answer,
      land: (landed) => {
        if (flights.get(key) === flight) flights.delete(key);
        land(landed);
      },
    };
    flights.set(key, flight);
    return flight;
  };

  app.addHook("preHandler", async (req, reply) => {
    const config = req.routeOptions.config.answerCache;
    const who = req.principal;
    if (!config || !who || who.kind !== "staff" || req.method !== "GET") return;
    const state = await readDataState(who);
    if (!state) throw sessionEnded();
    if (state.enrol && !req.routeOptions.config.duringEnrolment) throw enrolmentRequired();
    if (req.routeOptions.config.access === "admin" && state.role !== "admin") throw adminsOnly();
    // The statement read the session: a stored answer may be sent without a transaction of its own.
    recordSessionChecked(req);
    const key = JSON.stringify([
      who.orgId,
      state.version,
      config.daily ? state.day : null,
      req.routeOptions.url,
      ...config.key(req, who),
    ]);
    const stored = cache.get(key);
    if (stored) return reply.type(JSON_TYPE).send(stored);
    const inFlight = flights.get(key);
    const shared = inFlight ? await inFlight.answer : undefined;
    // An answer that expired while this request waited is computed again, as a stored one would be.
    if (shared && (shared.until === null || shared.until >= now().getTime())) {
      return reply.type(JSON_TYPE).send(shared.body);
    }
    req.answerKey = key;
    if (!inFlight) req.answerFlight = takeOff(key);
  });

  app.addHook("onSend", async (req, reply, payload) => {
    if (!req.answerKey) return payload;
    const body = reply.statusCode === 200 && typeof payload === "string" ? Buffer.from(payload) : undefined;
    const until = req.answerUntil?.getTime() ?? null;
    if (body) cache.set(req.answerKey, body, until);
    req.answerFlight?.land(body && { body, until });
    return payload;
  });
  // A request that never sends (its client went away) must not leave the others waiting.
  const abandon = async (req: FastifyRequest) => req.answerFlight?.land(undefined);
  app.addHook("onResponse", abandon);
  app.addHook("onRequestAbort", abandon);
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Drops an erased organization's data version, last in the erasing transaction: data_versions has no foreign key (its
 * triggers fire while the rows cascade away), so its rows do not go with the organization. The version triggers are
 * deferred to the commit, where they would write a version again for the rows just deleted: they are fired first.
 */
export async function forgetDataVersions(db: Queryable, orgId: string): Promise<void> {
  await db.execute(sql`set constraints all immediate`);
  await db.delete(dataVersions).where(eq(dataVersions.organizationId, orgId));
}
