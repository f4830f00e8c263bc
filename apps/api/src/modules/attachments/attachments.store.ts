import { type AttachmentLimits, formatBytes } from "@cove/contract/attachment-limits.ts";
import { type Attachment, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { and, asc, count, eq, inArray, isNull, lt, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { attachmentParts, attachments } from "../../db/schema/attachments.ts";
import type { Db, Queryable } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { sniffType } from "../../platform/images.ts";
import { type TenantCtx, withVisitor } from "../../platform/tenancy.ts";
import { isPublicComment, ticketExistsInOrg } from "../tickets/index.ts";

/**
 * Attachments are kept in the database behind these few functions: every instance of the app sees them with no shared
 * disk, they go with the organization's export and erasure, and row-level security guards them like any tenant row.
 * An object store can take their place here when files outgrow the database.
 *
 * An upload's bytes are written as they arrive, in parts of UPLOAD_PART_BYTES each in a short transaction of its own
 * (attachment_parts), so that no upload holds the database for longer than one small write; the request's transaction
 * then only names them (upload_id). Received mail keeps its files' bytes in the row.
 */

// What the bytes are (platform/images.ts): other modules take it from here with the rest of the file rules.
export { sniffType };

/** The most bytes one write of an upload holds the database for. */
export const UPLOAD_PART_BYTES = 128 * 1024;

/** An upload whose bytes are stored already, in parts: what a request's transaction attaches. */
export interface StoredUpload {
  uploadId: string;
  size: number;
  /** Its first bytes, which say what it is. */
  head: Buffer;
}

/** A file's content: its bytes (received mail), or an upload stored in parts. */
export type FileContent = Buffer | StoredUpload;

export const contentSize = (content: FileContent) => (Buffer.isBuffer(content) ? content.length : content.size);

/** The part write going on, per database: uploads' parts take turns, one at a time. */
const partLanes = new WeakMap<object, Promise<unknown>>();

/**
 * Writes one part of an upload, in a transaction of its own confined to the organization. Parts of all uploads are
 * written one at a time, so a read arriving meanwhile waits for one part at most, however many uploads go on (the
 * embedded database serves queries in turn on one connection).
 */
export function writeUploadPart(db: Db, orgId: string, uploadId: string, seq: number, bytes: Buffer): Promise<void> {
  // As hex text decoded by the database: the embedded driver passes a bytea parameter ten times slower.
  const write = () =>
    withVisitor(db, orgId, async (v) => {
      await v.db.execute(
        sql`insert into attachment_parts (upload_id, seq, organization_id, bytes)
            values (${uploadId}, ${seq}, ${orgId}, decode(${bytes.toString("hex")}, 'hex'))`,
      );
    });
  const written = (partLanes.get(db) ?? Promise.resolve()).then(write, write);
  partLanes.set(
    db,
    written.catch(() => undefined),
  );
  return written;
}

/** Drops the parts of an upload that no file names (it was refused, cut off, or its request failed). */
export async function dropUpload(db: Db, orgId: string, uploadId: string): Promise<void> {
  await withVisitor(db, orgId, async (v) => {
    await v.db
      .delete(attachmentParts)
      .where(
        and(
          eq(attachmentParts.organizationId, orgId),
          eq(attachmentParts.uploadId, uploadId),
          sql`not exists (select 1 from ${attachments} a where a.organization_id = ${orgId} and a.upload_id = ${uploadId})`,
        ),
      );
  });
}

/**
 * A file's bytes: its parts in order when it was uploaded in parts, else the row's own (columns named in full). Read
 * as base64 text, which the embedded driver returns ten times faster than bytea.
 */
const storedBytes = sql<Buffer>`encode(coalesce((select string_agg(p.bytes, ''::bytea order by p.seq)
  from ${attachmentParts} p where p.upload_id = ${attachments}.upload_id), ${attachments}.bytes), 'base64')`.mapWith(
  (text: string) => Buffer.from(text, "base64"),
);

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
    bytes: FileContent;
    state?: "pending" | "attached";
  },
): Promise<Attachment> {
  const content = file.bytes;
  const inRow = Buffer.isBuffer(content);
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
      contentType: sniffType(inRow ? content : content.head),
      size: contentSize(content),
      bytes: inRow ? content : Buffer.alloc(0),
      uploadId: inRow ? null : content.uploadId,
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
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: storedBytes })
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

// A ticket's detail shows them: app.ts hands this to the tickets module (tickets.parts.ts), which cannot import this one.
/**
 * A scalar subquery for a ticket's detail: its attachments (not the uploads of replies still being written), oldest
 * first, without their bytes, as a JSON array of the contract's Attachment.
 */
export const ticketAttachmentsJson = (orgId: SQLWrapper, ticketId: SQLWrapper) =>
  sql<Attachment[]>`(select coalesce(json_agg(json_build_object('id', a.id, 'comment_id', a.comment_id,
       'filename', a.filename, 'content_type', a.content_type, 'size', a.size) order by a.created_at, a.seq), '[]')
     from ${attachments} a where a.organization_id = ${orgId} and a.ticket_id = ${ticketId} and a.state = 'attached')`;

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

/** One file of the organization, with its bytes, by its id and what it must belong to (null: none such). */
async function readFile(db: Queryable, orgId: string, id: string, belongsTo: SQL | undefined) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: storedBytes })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.id, id), belongsTo));
  return row ?? null;
}

/** A file of the public conversation of a ticket (null: none such, or an internal note's). */
export async function readPublicAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  return readFile(db, orgId, id, and(eq(attachments.ticketId, ticketId), publicFile));
}

const publicFile = and(
  eq(attachments.state, "attached"),
  sql`(${attachments.commentId} is null or ${isPublicComment(attachments.organizationId, attachments.commentId)})`,
);

export async function readAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  return readFile(db, orgId, id, eq(attachments.ticketId, ticketId));
}

/** A member's upload for a reply they are writing on a ticket of their organization (pending until the reply). */
export async function uploadForReply(
  ctx: TenantCtx & { userId: string },
  ticketId: string,
  filename: string,
  bytes: FileContent,
  limits: AttachmentLimits,
) {
  if (!(await ticketExistsInOrg(ctx.db, ctx.orgId, ticketId))) throw notFound("Ticket");
  await assertRoomToWait(ctx, eq(attachments.userId, ctx.userId), limits);
  return putAttachment(ctx.db, ctx.orgId, {
    ticketId,
    commentId: null,
    userId: ctx.userId,
    filename,
    bytes,
    state: "pending",
  });
}

/** A file of a live chat (row-level security leaves a visitor only their own chats' files). */
export async function readChatFile(db: Queryable, orgId: string, sessionId: string, id: string) {
  return readFile(db, orgId, id, eq(attachments.chatSessionId, sessionId));
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
  return readFile(db, orgId, id, eq(attachments.articleId, articleId));
}

/** Adds a file to an article, within the limits of one message (an article's files count as one message's). */
export async function addArticleFile(
  db: Queryable,
  orgId: string,
  articleId: string,
  file: { filename: string; bytes: FileContent },
  limits: AttachmentLimits,
): Promise<Attachment> {
  const [held] = await db
    .select({ n: count(), bytes: sql<number>`coalesce(sum(${attachments.size}), 0)::int` })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.articleId, articleId)));
  if ((held?.n ?? 0) >= limits.max_files) {
    throw new AppError("BAD_REQUEST", `An article can have at most ${limits.max_files} files.`);
  }
  if ((held?.bytes ?? 0) + contentSize(file.bytes) > limits.max_message_bytes) {
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
    .returning({ id: attachments.id, uploadId: attachments.uploadId });
  const uploadId = rows[0]?.uploadId;
  if (uploadId) {
    await db
      .delete(attachmentParts)
      .where(and(eq(attachmentParts.organizationId, orgId), eq(attachmentParts.uploadId, uploadId)));
  }
  return rows.length > 0;
}

/**
 * An upload for a message not sent yet whose ticket may not exist: a portal customer's (a reply, or a ticket not
 * submitted yet) or a member's new ticket. Pending, its uploader's alone until it is sent with the message.
 */
export async function uploadPending(
  ctx: TenantCtx,
  owner: { contactId: string } | { userId: string },
  filename: string,
  bytes: FileContent,
  limits: AttachmentLimits,
) {
  const mine = "contactId" in owner ? eq(attachments.contactId, owner.contactId) : eq(attachments.userId, owner.userId);
  await assertRoomToWait(ctx, mine, limits);
  return putAttachment(ctx.db, ctx.orgId, {
    ticketId: null,
    commentId: null,
    ...owner,
    filename,
    bytes,
    state: "pending",
  });
}

/**
 * Each uploader (a customer, or a member: for a new ticket and for replies alike) keeps at most two messages' worth of
 * files waiting to be sent.
 */
async function assertRoomToWait(ctx: TenantCtx, mine: SQL | undefined, limits: AttachmentLimits): Promise<void> {
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
}

/** Uploads never sent with a reply are dropped after a day (across organizations: Cove's own upkeep, as the owner). */
export async function purgeStaleUploads(db: Queryable): Promise<number> {
  const rows = await db
    .delete(attachments)
    .where(and(eq(attachments.state, "pending"), lt(attachments.createdAt, sql`now() - interval '1 day'`)))
    .returning({ id: attachments.id });
  // Parts no file names: uploads refused or cut off whose request could not drop them (a crash, a restart).
  await db
    .delete(attachmentParts)
    .where(
      and(
        lt(attachmentParts.createdAt, sql`now() - interval '1 day'`),
        sql`not exists (select 1 from ${attachments} a where a.upload_id = ${attachmentParts}.upload_id)`,
      ),
    );
  return rows.length;
}

/** A file of a customer's, for their data export: what it was attached to, and its bytes. */
export interface CustomerFile {
  id: string;
  ticketId: string | null;
  commentId: string | null;
  chatSessionId: string | null;
  filename: string;
  contentType: string;
  size: number;
  bytes: Buffer;
}

/**
 * The files of a customer's data export: those of their tickets' public conversation (never an internal note's) and
 * those of their chats. In the caller's transaction.
 */
export async function customerFiles(
  db: Queryable,
  orgId: string,
  of: { ticketIds: string[]; chatIds: string[] },
): Promise<CustomerFile[]> {
  if (of.ticketIds.length === 0 && of.chatIds.length === 0) return [];
  const onTickets = of.ticketIds.length > 0 ? and(inArray(attachments.ticketId, of.ticketIds), publicFile) : sql`false`;
  const inChats = of.chatIds.length > 0 ? inArray(attachments.chatSessionId, of.chatIds) : sql`false`;
  return db
    .select({
      id: attachments.id,
      ticketId: attachments.ticketId,
      commentId: attachments.commentId,
      chatSessionId: attachments.chatSessionId,
      filename: attachments.filename,
      contentType: attachments.contentType,
      size: attachments.size,
      bytes: storedBytes,
    })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), or(onTickets, inChats)))
    .orderBy(asc(attachments.createdAt), asc(attachments.seq));
}

/**
 * Deletes a customer's files, with their stored parts, in the caller's transaction (erasing the customer): what they
 * uploaded, the files of the replies they wrote, of the first message of their tickets when no member added it (their
 * mail's, their portal's), and of their chats. Answers how many.
 */
export async function deleteCustomerFiles(
  db: Queryable,
  orgId: string,
  of: { contactId: string; ticketIds: string[]; commentIds: string[]; chatIds: string[] },
): Promise<number> {
  const theirs = [
    eq(attachments.contactId, of.contactId),
    of.commentIds.length > 0 ? inArray(attachments.commentId, of.commentIds) : undefined,
    of.chatIds.length > 0 ? inArray(attachments.chatSessionId, of.chatIds) : undefined,
    of.ticketIds.length > 0
      ? and(inArray(attachments.ticketId, of.ticketIds), isNull(attachments.commentId), isNull(attachments.userId))
      : undefined,
  ];
  const gone = await db
    .delete(attachments)
    .where(and(eq(attachments.organizationId, orgId), or(...theirs)))
    .returning({ uploadId: attachments.uploadId });
  const uploads = gone.flatMap((r) => (r.uploadId ? [r.uploadId] : []));
  if (uploads.length > 0) {
    await db
      .delete(attachmentParts)
      .where(and(eq(attachmentParts.organizationId, orgId), inArray(attachmentParts.uploadId, uploads)));
  }
  return gone.length;
}
