-- The request limits of @fastify/rate-limit, counted once for every instance on PostgreSQL (platform/rate-limit-store.ts,
-- docs/decisions/2026-12-01-shared-rate-limits.md): one row per route and client key, its count and when its window
-- ends. UNLOGGED: a crash empties it, which only forgives the requests of the current windows; no WAL is written for
-- the one upsert per limited request. No organization's data: the owner role writes it outside any tenant transaction,
-- so the request role is granted nothing.
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_end" timestamp with time zone NOT NULL
);
