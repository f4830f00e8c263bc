import { integer, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns.ts";
import { organizationId } from "./organizations.ts";

/**
 * What the platform keeps about API requests themselves (platform/idempotency.ts, platform/api-rate.ts), not about any
 * feature's data.
 *
 * A POST sent with an Idempotency-Key: the first request claims the key (status null while it runs) and stores its
 * answer, which a repeat of the same request gets back for 24 hours. The actor is "staff:<user id>" or
 * "api_key:<key id>", so two callers never share a key.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    organizationId: organizationId(),
    actor: text("actor").notNull(),
    key: text("key").notNull(),
    /** sha256 of the method, the path and the body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    /** The answer's status; null while the first request is still running. */
    status: smallint("status"),
    contentType: text("content_type"),
    body: text("body"),
    /** A claim whose request never answered (its instance died) can be taken over after this. */
    lockedUntil: timestamptz("locked_until").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "idempotency_keys_pkey", columns: [t.organizationId, t.actor, t.key] })],
);

/**
 * Requests one API key made in the current minute: one row per key, reset when a new minute starts. Written by the
 * authentication step (as the owner role, before any organization is confined), one statement per request.
 */
export const apiKeyRateWindows = pgTable(
  "api_key_rate_windows",
  {
    organizationId: organizationId(),
    keyId: uuid("key_id").notNull(),
    windowStart: timestamptz("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ name: "api_key_rate_windows_pkey", columns: [t.organizationId, t.keyId] })],
);

/**
 * The counters of the request limits routes declare (`config.rateLimit`, @fastify/rate-limit) on PostgreSQL, shared by
 * every instance (platform/rate-limit-store.ts): one row per route and client key, reset when its window has ended.
 * UNLOGGED in the migration (0086), which Drizzle's table builder cannot say: a crash empties it, and that only forgives
 * the current windows. Written by the owner role outside any tenant transaction; no organization's data.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowEnd: timestamptz("window_end").notNull(),
});
