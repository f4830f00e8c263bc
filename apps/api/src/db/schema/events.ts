import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizationId } from "./organizations.ts";

/**
 * The outbox: every domain event, written by the transaction whose change it describes (platform/events.ts), so an
 * event exists exactly when its change was committed. The id is the event's monotonic id; consumers that react later
 * (the job queue, the realtime fan-out) read it from here or from the NOTIFY that the same transaction sends.
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: organizationId(),
    type: text("type").notNull(),
    /** staff, contact, api_key or system. */
    actorKind: text("actor_kind").notNull(),
    /** The user's, contact's or key's id; for the system, what acted (e.g. automation). */
    actorId: text("actor_id").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("events_org_id_idx").on(t.organizationId, t.id), index("events_created_idx").on(t.createdAt)],
);
