import { bigint, pgTable, uuid } from "drizzle-orm/pg-core";

/**
 * A counter per organization that triggers bump in every transaction changing what cached answers show: its tickets,
 * comments, ticket events, and its team's names and statuses (migration 0013). An answer is served from the cache
 * only while the counter still has the value it had when the answer was computed (platform/answer-cache.ts). Only
 * those triggers write it, so taking its row lock never waits on anything else. No foreign key: the triggers fire
 * while an organization's rows cascade away, and the row goes with the organization's other data.
 */
export const dataVersions = pgTable("data_versions", {
  organizationId: uuid("organization_id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});
