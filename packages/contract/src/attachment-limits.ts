import { z } from "zod";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGE_MAX_BYTES, ATTACHMENTS_PER_MESSAGE } from "./attachments.ts";
import { defineRoute } from "./routes.ts";

// Apart from attachments.ts, which the ticket contract (and so every signed-in screen) loads: only upload boxes need these.

/** The limits in force, announced to the web app (GET /api/public/attachment-limits) so it can say them first. */
export const attachmentLimitsSchema = z.object({
  max_file_bytes: z.number().int(),
  max_message_bytes: z.number().int(),
  max_files: z.number().int(),
});
export type AttachmentLimits = z.infer<typeof attachmentLimitsSchema>;
export const attachmentLimitsAnswer = z.object({ limits: attachmentLimitsSchema });
export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  max_file_bytes: ATTACHMENT_MAX_BYTES,
  max_message_bytes: ATTACHMENT_MESSAGE_MAX_BYTES,
  max_files: ATTACHMENTS_PER_MESSAGE,
};

/** The limits in force, for anyone about to upload (staff, a portal customer, a chat visitor). */
export const attachmentLimitsApi = {
  limits: defineRoute({
    method: "GET",
    path: "/api/public/attachment-limits",
    summary: "The size and count limits of files (per file and per message), to say them before uploading",
    tags: ["tickets"],
    access: "public",
    answers: { 200: attachmentLimitsAnswer },
  }),
};

/**
 * Uploads one instance takes at once, from one client address and for one organization: past either, an upload is
 * refused (429) until one ends, so a few visitors cannot keep the database busy for everyone. The web app sends at
 * most UPLOADS_AT_ONCE_FROM_A_PAGE of its files at a time.
 */
export const UPLOADS_AT_ONCE_PER_ADDRESS = 3;
export const UPLOADS_AT_ONCE_PER_ORGANIZATION = 6;
export const UPLOADS_AT_ONCE_FROM_A_PAGE = 2;

/** A size as people read it: 5 MB, 300 KB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / 1024 / 1024;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
