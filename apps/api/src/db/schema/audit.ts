import { AUDIT_ACTOR_TYPES } from "@cove/contract/audit.ts";
import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns.ts";
import { organizationId } from "./organizations.ts";

/**
 * The audit log (modules/audit, written by platform/audit.ts): who did what to which object, when and from where.
 * Append-only for the app's role (migration *_audit_log_row_level_security.sql grants SELECT and INSERT only); the
 * owner's retention job deletes entries after 365 days. Each entry carries the hash of its organization's previous
 * entry (prev_hash) and its own (hash: sha256 of its canonical form and prev_hash), so a changed or removed entry
 * breaks the chain. The id orders an organization's entries: they are inserted one at a time per organization.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: organizationId(),
    actorType: text("actor_type", { enum: AUDIT_ACTOR_TYPES }).notNull(),
    actorId: text("actor_id").notNull(),
    /** The actor's name when the entry was written (a member renamed or removed later keeps it here). */
    actorName: text("actor_name").notNull(),
    action: text("action").notNull(),
    objectType: text("object_type"),
    objectId: text("object_id"),
    objectLabel: text("object_label"),
    /** The client's address (null for the system's own work). */
    address: text("address"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptz("created_at").notNull(),
    prevHash: text("prev_hash"),
    hash: text("hash").notNull(),
  },
  (t) => [index("audit_log_org_id_idx").on(t.organizationId, t.id), index("audit_log_created_at_idx").on(t.createdAt)],
);
