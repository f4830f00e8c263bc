import { bigserial, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { chatMessages, chatSessions } from "./chat.ts";
import { bytea, createdAt, id, refCascade, refSetNull } from "./columns.ts";
import { contacts } from "./contacts.ts";
import { kbArticles } from "./kb.ts";
import { organizationId } from "./organizations.ts";
import { ticketComments, tickets } from "./tickets.ts";
import { users } from "./users.ts";

/**
 * Files on tickets (from email, staff and portal customers), in live chats and on articles, kept in the database so every instance of the app serves
 * them (docs/decisions/2026-11-25-email-channel.md). The type is what the bytes are, not what the sender said.
 */
export const attachments = pgTable(
  "attachments",
  {
    id: id(),
    /** Orders the files of one message, which share a timestamp. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    organizationId: organizationId(),
    /**
     * What a file belongs to: a ticket (with comment_id for a reply's), a live chat (a message of its own), or a
     * knowledge-base article. A customer's upload for a ticket they have not submitted yet has none (pending).
     */
    ticketId: refCascade("ticket_id", () => tickets.id),
    chatSessionId: refCascade("chat_session_id", () => chatSessions.id),
    chatMessageId: refCascade("chat_message_id", () => chatMessages.id),
    articleId: refCascade("article_id", () => kbArticles.id),
    /** The customer who uploaded it from the portal (null: staff, or mail); only they may attach it while pending. */
    contactId: refCascade("contact_id", () => contacts.id),
    /** The member who uploaded it for a ticket they have not created yet; only they may attach it while pending. */
    userId: refSetNull("user_id", () => users.id),
    /** The reply it came with; null: the ticket's first message. */
    commentId: refCascade("comment_id", () => ticketComments.id),
    /**
     * pending: uploaded for a reply not yet sent (its comment_id is set, and it becomes attached, when the reply is
     * added); attached: part of the ticket.
     */
    state: text("state", { enum: ["pending", "attached"] })
      .notNull()
      .default("attached"),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** The bytes, when they are kept in the row (received mail, files uploaded before parts); else empty. */
    bytes: bytea("bytes").notNull(),
    /** An upload's bytes are in attachment_parts under this id, written as they arrived; null: in bytes. */
    uploadId: uuid("upload_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("attachments_upload_idx").on(t.uploadId),
    index("attachments_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt),
    index("attachments_org_chat_idx").on(t.organizationId, t.chatSessionId),
    index("attachments_org_article_idx").on(t.organizationId, t.articleId),
  ],
);

/**
 * An uploaded file's bytes in parts of at most UPLOAD_PART_BYTES, each written in a short transaction of its own while
 * the upload streams in, so no upload holds the database (one connection, on the embedded database) for long. The
 * attachment naming upload_id is written last, in the request's transaction; parts no attachment names (an upload
 * refused or cut off) are dropped when the request fails, or by the daily purge.
 */
export const attachmentParts = pgTable(
  "attachment_parts",
  {
    uploadId: uuid("upload_id").notNull(),
    seq: integer("seq").notNull(),
    organizationId: organizationId(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.seq] }), index("attachment_parts_created_idx").on(t.createdAt)],
);
