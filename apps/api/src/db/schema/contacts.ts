import { CONTACT_SESSION_KINDS } from "@cove/contract/contacts.ts";
import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, refCascade, timestamps, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";

/**
 * An organization's customers (the contact actor): people who write in by the portal, chat, email or a ticket an agent
 * opened for them. Deduplicated by email within the organization; a chat visitor who gave no email has none.
 */
export const contacts = pgTable(
  "contacts",
  {
    ...tenantRow(),
    name: text("name").notNull(),
    /** Stored lower-cased. */
    email: text("email"),
    company: text("company"),
    ...timestamps(),
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
    ...tenantRow(),
    contactId: refCascade("contact_id", () => contacts.id).notNull(),
    kind: text("kind", { enum: CONTACT_SESSION_KINDS }).notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("contact_sessions_token_hash_unique").on(t.tokenHash),
    index("contact_sessions_org_contact_idx").on(t.organizationId, t.contactId),
  ],
);
