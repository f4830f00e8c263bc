import { CONTACT_SESSION_KINDS } from "@cove/contract/contacts.ts";
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizations } from "./organizations.ts";

/**
 * An organization's customers (the contact actor): people who write in by the portal, chat, email or a ticket an agent
 * opened for them. Deduplicated by email within the organization; a chat visitor who gave no email has none.
 */
export const contacts = pgTable(
  "contacts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Stored lower-cased. */
    email: text("email"),
    company: text("company"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("contacts_org_email_unique").on(t.organizationId, t.email).where(sql`${t.email} is not null`),
    index("contacts_org_created_idx").on(t.organizationId, t.createdAt),
  ],
);

/**
 * A contact's signed-in session: a portal sign-in (magic link) or a chat visitor's token. Like staff sessions, only the
 * sha256 of the token is stored.
 */
export const contactSessions = pgTable(
  "contact_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    contactId: uuid("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: CONTACT_SESSION_KINDS }).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("contact_sessions_token_hash_unique").on(t.tokenHash),
    index("contact_sessions_org_contact_idx").on(t.organizationId, t.contactId),
  ],
);
