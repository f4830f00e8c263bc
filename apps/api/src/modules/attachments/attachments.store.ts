import { type AttachmentLimits, formatBytes } from "@cove/contract/attachment-limits.ts";
import { type Attachment, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { and, asc, count, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { attachments } from "../../db/schema/attachments.ts";
import type { Queryable } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { sniffType } from "../../platform/images.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { isPublicComment, ticketExistsInOrg } from "../tickets/tickets.queries.ts";

/**
 * Attachments are kept in the database behind these few functions: every instance of the app sees them with no shared
 * disk, they go with the organization's export and erasure, and row-level security guards them like any tenant row.
 * An object store can take their place here when files outgrow the database.
 */

// What the bytes are (platform/images.ts): other modules take it from here with the rest of the file rules.
export { sniffType };

export const isInlineImage = (type: string) => (INLINE_IMAGE_TYPES as readonly string[]).includes(type);

/** A file name safe to store and to put in a header: no paths, no control characters, at most 200 characters. */
export function safeFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}"]/gu, "")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 200);
  return cleaned || "attachment";
}

/** Content-Disposition with a plain fallback name and the exact one (RFC 6266 / 5987). */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/[\\"]/g, "_");
  // RFC 5987's attr-char has no ' ( ) *, which encodeURIComponent leaves as they are.
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Stores a file of a ticket (pending: uploaded for a reply still being written); answers it without its bytes. */
export async function putAttachment(
  db: Queryable,
  orgId: string,
  file: {
    ticketId: string | null;
    commentId: string | null;
    contactId?: string | null;
    userId?: string | null;
    chatSessionId?: string;
    chatMessageId?: string;
    articleId?: string;
    filename: string | undefined;
    bytes: Buffer;
    state?: "pending" | "attached";
  },
): Promise<Attachment> {
  const [row] = await db
    .insert(attachments)
    .values({
      organizationId: orgId,
      ticketId: file.ticketId,
      commentId: file.commentId,
      contactId: file.contactId ?? null,
      userId: file.userId ?? null,
      chatSessionId: file.chatSessionId ?? null,
      chatMessageId: file.chatMessageId ?? null,
      articleId: file.articleId ?? null,
      state: file.state ?? "attached",
      filename: safeFilename(file.filename),
      contentType: sniffType(file.bytes),
      size: file.bytes.length,
      bytes: file.bytes,
    })
    .returning(listed);
  if (!row) throw new Error("attachment insert returned nothing");
  return toAttachment(row);
}

/**
 * Attaches files uploaded for a message (a reply, or a new ticket's first message: commentId null) to it, once, within
 * the limits of one message. Refused as a whole (400) when one of them is not a pending upload of this ticket (a staff
 * reply's), of this customer (contactId: a portal upload, which has no ticket yet) or of this member (userId: uploaded
 * for a ticket they were creating), or when they are too many or too large together.
 */
export async function attachPending(
  db: Queryable,
  orgId: string,
  target: { ticketId: string; commentId: string | null; contactId?: string | null; userId?: string | null },
  ids: string[],
  limits: AttachmentLimits,
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  if (unique.length > limits.max_files) {
    throw new AppError("BAD_REQUEST", `A message can have at most ${limits.max_files} files.`);
  }
  const owner = target.contactId
    ? and(eq(attachments.contactId, target.contactId), isNull(attachments.ticketId))
    : target.userId
      ? and(eq(attachments.userId, target.userId), isNull(attachments.ticketId))
      : eq(attachments.ticketId, target.ticketId);
  const rows = await db
    .update(attachments)
    .set({ ticketId: target.ticketId, commentId: target.commentId, state: "attached" })
    .where(
      and(
        eq(attachments.organizationId, orgId),
        owner,
        eq(attachments.state, "pending"),
        inArray(attachments.id, unique),
      ),
    )
    .returning({ size: attachments.size });
  if (rows.length !== unique.length) {
    throw new AppError("BAD_REQUEST", "A file of this message was not found: upload it again.");
  }
  const total = rows.reduce((sum, r) => sum + r.size, 0);
  if (total > limits.max_message_bytes) {
    throw new AppError(
      "BAD_REQUEST",
      `The files of one message can be at most ${formatBytes(limits.max_message_bytes)} together.`,
    );
  }
}

/** The files of one reply, with their bytes (for its email). */
export async function filesOfComment(db: Queryable, orgId: string, commentId: string) {
  return db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(
      and(
        eq(attachments.organizationId, orgId),
        eq(attachments.commentId, commentId),
        eq(attachments.state, "attached"),
      ),
    )
    .orderBy(asc(attachments.seq));
}

const listed = {
  id: attachments.id,
  commentId: attachments.commentId,
  filename: attachments.filename,
  contentType: attachments.contentType,
  size: attachments.size,
};

function toAttachment(r: {
  id: string;
  commentId: string | null;
  filename: string;
  contentType: string;
  size: number;
}) {
  return { id: r.id, comment_id: r.commentId, filename: r.filename, content_type: r.contentType, size: r.size };
}

/** The file each of some chat messages carries (a chat file is a message of its own), by message id. */
export async function filesOfChatMessages(
  db: Queryable,
  orgId: string,
  messageIds: string[],
): Promise<Map<string, Attachment>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .select({ ...listed, messageId: attachments.chatMessageId })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), inArray(attachments.chatMessageId, messageIds)));
  return new Map(rows.map((r) => [r.messageId ?? "", toAttachment(r)]));
}

/** A ticket's attachments (not the uploads of replies still being written), without their bytes. */
export async function listAttachments(db: Queryable, orgId: string, ticketId: string): Promise<Attachment[]> {
  const rows = await db
    .select(listed)
    .from(attachments)
    .where(
      and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId), eq(attachments.state, "attached")),
    )
    .orderBy(asc(attachments.createdAt), asc(attachments.seq));
  return rows.map(toAttachment);
}

/**
 * The files of a ticket's public conversation, for its customer: the first message's and those of public replies, never
 * an internal note's (the contact role's policies hide those rows too).
 */
export async function listPublicAttachments(db: Queryable, orgId: string, ticketId: string): Promise<Attachment[]> {
  const rows = await db
    .select(listed)
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId), publicFile))
    .orderBy(asc(attachments.createdAt), asc(attachments.seq));
  return rows.map(toAttachment);
}

/** A file of the public conversation of a ticket (null: none such, or an internal note's). */
export async function readPublicAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(
      and(
        eq(attachments.organizationId, orgId),
        eq(attachments.ticketId, ticketId),
        eq(attachments.id, id),
        publicFile,
      ),
    );
  return row ?? null;
}

const publicFile = and(
  eq(attachments.state, "attached"),
  sql`(${attachments.commentId} is null or ${isPublicComment(attachments.organizationId, attachments.commentId)})`,
);

export async function readAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId), eq(attachments.id, id)));
  return row ?? null;
}

/** A member's upload for a reply they are writing on a ticket of their organization (pending until the reply). */
export async function uploadForReply(ctx: TenantCtx, ticketId: string, filename: string, bytes: Buffer) {
  if (!(await ticketExistsInOrg(ctx.db, ctx.orgId, ticketId))) throw notFound("Ticket");
  return putAttachment(ctx.db, ctx.orgId, { ticketId, commentId: null, filename, bytes, state: "pending" });
}

/** A file of a live chat (row-level security leaves a visitor only their own chats' files). */
export async function readChatFile(db: Queryable, orgId: string, sessionId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(
      and(eq(attachments.organizationId, orgId), eq(attachments.chatSessionId, sessionId), eq(attachments.id, id)),
    );
  return row ?? null;
}

/** An article's files, without their bytes (staff see a draft's; the help center only a published one's). */
export async function listArticleFiles(db: Queryable, orgId: string, articleId: string): Promise<Attachment[]> {
  const rows = await db
    .select(listed)
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.articleId, articleId)))
    .orderBy(asc(attachments.createdAt), asc(attachments.seq));
  return rows.map(toAttachment);
}

export async function readArticleFile(db: Queryable, orgId: string, articleId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.articleId, articleId), eq(attachments.id, id)));
  return row ?? null;
}

/** Adds a file to an article, within the limits of one message (an article's files count as one message's). */
export async function addArticleFile(
  db: Queryable,
  orgId: string,
  articleId: string,
  file: { filename: string; bytes: Buffer },
  limits: AttachmentLimits,
): Promise<Attachment> {
  const [held] = await db
    .select({ n: count(), bytes: sql<number>`coalesce(sum(${attachments.size}), 0)::int` })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.articleId, articleId)));
  if ((held?.n ?? 0) >= limits.max_files) {
    throw new AppError("BAD_REQUEST", `An article can have at most ${limits.max_files} files.`);
  }
  if ((held?.bytes ?? 0) + file.bytes.length > limits.max_message_bytes) {
    throw new AppError(
      "BAD_REQUEST",
      `The files of one article can be at most ${formatBytes(limits.max_message_bytes)} together.`,
    );
  }
  return putAttachment(db, orgId, { ticketId: null, commentId: null, articleId, ...file });
}

export async function deleteArticleFile(db: Queryable, orgId: string, articleId: string, id: string) {
  const rows = await db
    .delete(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.articleId, articleId), eq(attachments.id, id)))
    .returning({ id: attachments.id });
  return rows.length > 0;
}

/**
 * An upload for a message not sent yet whose ticket may not exist: a portal customer's (a reply, or a ticket not
 * submitted yet) or a member's new ticket. Pending, its uploader's alone until it is sent with the message; each keeps at
 * most two messages' worth of files waiting.
 */
export async function uploadPending(
  ctx: TenantCtx,
  owner: { contactId: string } | { userId: string },
  filename: string,
  bytes: Buffer,
  limits: AttachmentLimits,
) {
  const mine = "contactId" in owner ? eq(attachments.contactId, owner.contactId) : eq(attachments.userId, owner.userId);
  const [waiting] = await ctx.db
    .select({ n: count() })
    .from(attachments)
    .where(and(eq(attachments.organizationId, ctx.orgId), mine, eq(attachments.state, "pending")));
  if ((waiting?.n ?? 0) >= limits.max_files * 2) {
    throw new AppError(
      "CONFLICT",
      "Too many files are waiting to be sent: send your message, or wait a day for unsent files to be dropped.",
    );
  }
  return putAttachment(ctx.db, ctx.orgId, {
    ticketId: null,
    commentId: null,
    ...owner,
    filename,
    bytes,
    state: "pending",
  });
}

/** Uploads never sent with a reply are dropped after a day (across organizations: Cove's own upkeep, as the owner). */
export async function purgeStaleUploads(db: Queryable): Promise<number> {
  const rows = await db
    .delete(attachments)
    .where(and(eq(attachments.state, "pending"), lt(attachments.createdAt, sql`now() - interval '1 day'`)))
    .returning({ id: attachments.id });
  return rows.length;
}
