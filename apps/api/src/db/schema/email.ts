import { EMAIL_DIRECTIONS, EMAIL_STATUSES, OUTBOUND_KINDS } from "@cove/contract/email.ts";
import { MAILBOX_STATUSES } from "@cove/contract/mailboxes.ts";
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { refSetNull, timestamps, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";
import { ticketComments, tickets } from "./tickets.ts";

/**
 * Every email Cove sent or received for an organization: the thread record (Message-IDs, so a reply finds its
 * ticket), each reply's delivery status, and what the receiver ignored or could not read (kept for an admin to see,
 * with its raw text when it was refused or not understood).
 */
export const emailMessages = pgTable(
  "email_messages",
  {
    ...tenantRow(),
    direction: text("direction", { enum: EMAIL_DIRECTIONS }).notNull(),
    /** Outbound only: a reply or an acknowledgement. */
    kind: text("kind", { enum: OUTBOUND_KINDS }),
    ticketId: refSetNull("ticket_id", () => tickets.id),
    /** The comment this email carried (outbound reply) or became (inbound reply). */
    commentId: refSetNull("comment_id", () => ticketComments.id),
    /** The Message-ID without angle brackets; null when an inbound message had none. */
    messageId: text("message_id"),
    /** In-Reply-To and References, without angle brackets, oldest first. */
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    /** The sender (inbound) or recipient (outbound) address, lower-cased. */
    address: text("address").notNull().default(""),
    subject: text("subject").notNull().default(""),
    status: text("status", { enum: EMAIL_STATUSES }).notNull(),
    /**
     * Why a message was ignored, rejected or failed, in words an admin can act on. On a received message: set only
     * when it was filed past the loop guard (nothing automatic answers it).
     */
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    /** The raw message (its first 256 KB), kept when it was not filed: rejected, unreadable, or automated. */
    raw: text("raw"),
    /**
     * A received message's HTML as it came (up to INBOUND_HTML_KEPT characters), for "View original email": the
     * ticket keeps its text; the web app sanitizes this and shows it in a sandboxed frame.
     */
    html: text("html"),
    /** Inbound from a mailbox's past (an import): not counted by the per-sender throttle, which is for live mail. */
    history: boolean("history").notNull().default(false),
    ...timestamps(),
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

/**
 * A mailbox an admin connected for import over IMAP: where it is, its password sealed with the secrets key, and how
 * far the import got. Progress moves in the transaction that files each message, so a restart resumes after the last
 * message filed (docs/decisions/2026-11-25-mailbox-import.md).
 */
export const emailMailboxes = pgTable(
  "email_mailboxes",
  {
    ...tenantRow(),
    host: text("host").notNull(),
    port: integer("port").notNull(),
    tls: boolean("tls").notNull(),
    username: text("username").notNull(),
    /** AES-256-GCM under the secrets key, bound to this row's id; null once the import is cancelled. */
    passwordSealed: text("password_sealed"),
    folder: text("folder").notNull().default("INBOX"),
    status: text("status", { enum: MAILBOX_STATUSES }).notNull().default("importing"),
    lastError: text("last_error"),
    /** The folder's UIDVALIDITY when last read: when the server changes it, every UID is new and the import restarts. */
    uidValidity: bigint("uid_validity", { mode: "number" }),
    /** UIDs below this were in the folder when it was connected: its history (never acknowledged nor throttled). */
    historyBeforeUid: bigint("history_before_uid", { mode: "number" }),
    /** The highest UID filed (or skipped, or failed) so far. */
    lastUid: bigint("last_uid", { mode: "number" }).notNull().default(0),
    remaining: integer("remaining").notNull().default(0),
    imported: integer("imported").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** When the current run started (connect, resume) and how many messages it has done: the pace shown. */
    runStartedAt: timestamptz("run_started_at"),
    runDone: integer("run_done").notNull().default(0),
    /** The job working on it and until when (renewed with every message); a dead worker's lease runs out. */
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamptz("lease_until"),
    /** A message whose filing keeps failing is given up after a few attempts, not retried forever. */
    failingUid: bigint("failing_uid", { mode: "number" }),
    failingAttempts: integer("failing_attempts").notNull().default(0),
    checkedAt: timestamptz("checked_at"),
    historyDoneAt: timestamptz("history_done_at"),
    ...timestamps(),
  },
  (t) => [index("email_mailboxes_org_idx").on(t.organizationId, t.createdAt)],
);
