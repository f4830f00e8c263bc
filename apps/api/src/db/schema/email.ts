import { EMAIL_DIRECTIONS, EMAIL_STATUSES, OUTBOUND_KINDS } from "@cove/contract/email.ts";
import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizations } from "./organizations.ts";
import { ticketComments, tickets } from "./tickets.ts";

/**
 * Every email Cove sent or received for an organization: the thread record (Message-IDs, so a reply finds its
 * ticket), each reply's delivery status, and what the receiver ignored or could not read (kept for an admin to see,
 * with its raw text when it was refused or not understood).
 */
export const emailMessages = pgTable(
  "email_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    direction: text("direction", { enum: EMAIL_DIRECTIONS }).notNull(),
    /** Outbound only: a reply or an acknowledgement. */
    kind: text("kind", { enum: OUTBOUND_KINDS }),
    ticketId: uuid("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    /** The comment this email carried (outbound reply) or became (inbound reply). */
    commentId: uuid("comment_id").references(() => ticketComments.id, { onDelete: "set null" }),
    /** The Message-ID without angle brackets; null when an inbound message had none. */
    messageId: text("message_id"),
    /** In-Reply-To and References, without angle brackets, oldest first. */
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    /** The sender (inbound) or recipient (outbound) address, lower-cased. */
    address: text("address").notNull().default(""),
    subject: text("subject").notNull().default(""),
    status: text("status", { enum: EMAIL_STATUSES }).notNull(),
    /** Why a message was ignored, rejected or failed, in words an admin can act on. */
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    /** The raw message, kept only when it was rejected or could not be read. */
    raw: text("raw"),
    /**
     * A received message's HTML as it came (up to INBOUND_HTML_KEPT characters), for "View original email": the
     * ticket keeps its text; the web app sanitizes this and shows it in a sandboxed frame.
     */
    html: text("html"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("email_messages_org_direction_message_id_unique")
      .on(t.organizationId, t.direction, t.messageId)
      .where(sql`${t.messageId} is not null`),
    index("email_messages_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt),
    index("email_messages_org_comment_idx").on(t.organizationId, t.commentId),
    index("email_messages_org_address_created_idx").on(t.organizationId, t.direction, t.address, t.createdAt),
  ],
);
