import { bigint, pgTable, primaryKey, smallint, uuid } from "drizzle-orm/pg-core";

/**
 * An organization's data version, kept in shards: every transaction that changes what cached answers show (its
 * tickets, comments, ticket events, and its team's names and statuses) adds 1 to one shard of its organization, picked
 * from its transaction id, as the last thing it does before it commits (migrations 0015 and 0016). The version is the
 * sum of the shards, read in one statement; an answer is served from the cache only while the sum still has the value
 * it had when the answer was computed (platform/answer-cache.ts). Shards let an organization's writers commit side by
 * side instead of queueing on one row (docs/decisions/2026-11-25-lock-order-and-sharded-versions.md). Only the
 * triggers write it. No foreign key: the triggers fire while an organization's rows cascade away, and the rows go with
 * the organization's other data.
 */
export const dataVersions = pgTable(
  "data_versions",
  {
    organizationId: uuid("organization_id").notNull(),
    shard: smallint("shard").notNull().default(0),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "data_versions_pkey", columns: [t.organizationId, t.shard] })],
);
