import { type Attachment, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { attachments } from "../../db/schema/attachments.ts";
import { tickets } from "../../db/schema/tickets.ts";
import type { Queryable } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/**
 * Attachments are kept in the database behind these few functions: every instance of the app sees them with no shared
 * disk, they go with the organization's export and erasure, and row-level security guards them like any tenant row.
 * An object store can take their place here when files outgrow the database.
 */

/** What the bytes are, from their first bytes; anything not recognised is served as a plain download. */
export function sniffType(bytes: Buffer): string {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf";
  if (starts(0x50, 0x4b, 0x03, 0x04)) return "application/zip";
  return "application/octet-stream";
}

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
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Stores a file of a ticket (pending: uploaded for a reply still being written); answers it without its bytes. */
export async function putAttachment(
  db: Queryable,
  orgId: string,
  file: {
    ticketId: string;
    commentId: string | null;
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
 * Attaches files uploaded for a reply to it, once. Answers false when one of them is not a pending upload of this
 * ticket (another ticket's, already attached, or nothing): the reply is then refused as a whole.
 */
export async function attachPending(
  db: Queryable,
  orgId: string,
  ticketId: string,
  commentId: string,
  ids: string[],
): Promise<boolean> {
  if (ids.length === 0) return true;
  const rows = await db
    .update(attachments)
    .set({ commentId, state: "attached" })
    .where(
      and(
        eq(attachments.organizationId, orgId),
        eq(attachments.ticketId, ticketId),
        eq(attachments.state, "pending"),
        inArray(attachments.id, ids),
      ),
    )
    .returning({ id: attachments.id });
  return rows.length === new Set(ids).size;
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

export async function readAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId), eq(attachments.id, id)));
  return row ?? null;
}

/** A member's upload for a reply they are writing on a ticket of their organization (pending until the reply). */
export async function uploadForReply(ctx: TenantCtx, ticketId: string, filename: string, bytes: Buffer) {
  const [ticket] = await ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.id, ticketId)));
  if (!ticket) throw notFound("Ticket");
  return putAttachment(ctx.db, ctx.orgId, { ticketId, commentId: null, filename, bytes, state: "pending" });
}

/** Uploads never sent with a reply are dropped after a day (across organizations: Cove's own upkeep, as the owner). */
export async function purgeStaleUploads(db: Queryable): Promise<number> {
  const rows = await db
    .delete(attachments)
    .where(and(eq(attachments.state, "pending"), lt(attachments.createdAt, sql`now() - interval '1 day'`)))
    .returning({ id: attachments.id });
  return rows.length;
}
