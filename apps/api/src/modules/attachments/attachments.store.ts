import { type Attachment, INLINE_IMAGE_TYPES } from "@cove/contract/attachments.ts";
import { and, asc, eq } from "drizzle-orm";
import { attachments } from "../../db/schema/attachments.ts";
import type { Queryable } from "../../platform/db.ts";

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

export async function putAttachment(
  db: Queryable,
  orgId: string,
  file: { ticketId: string; commentId: string | null; filename: string | undefined; bytes: Buffer },
): Promise<void> {
  await db.insert(attachments).values({
    organizationId: orgId,
    ticketId: file.ticketId,
    commentId: file.commentId,
    filename: safeFilename(file.filename),
    contentType: sniffType(file.bytes),
    size: file.bytes.length,
    bytes: file.bytes,
  });
}

/** A ticket's attachments, without their bytes. */
export async function listAttachments(db: Queryable, orgId: string, ticketId: string): Promise<Attachment[]> {
  const rows = await db
    .select({
      id: attachments.id,
      commentId: attachments.commentId,
      filename: attachments.filename,
      contentType: attachments.contentType,
      size: attachments.size,
    })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId)))
    .orderBy(asc(attachments.createdAt), asc(attachments.seq));
  return rows.map((r) => ({
    id: r.id,
    comment_id: r.commentId,
    filename: r.filename,
    content_type: r.contentType,
    size: r.size,
  }));
}

export async function readAttachment(db: Queryable, orgId: string, ticketId: string, id: string) {
  const [row] = await db
    .select({ filename: attachments.filename, contentType: attachments.contentType, bytes: attachments.bytes })
    .from(attachments)
    .where(and(eq(attachments.organizationId, orgId), eq(attachments.ticketId, ticketId), eq(attachments.id, id)));
  return row ?? null;
}
