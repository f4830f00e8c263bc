import { z } from "zod";
import { defineRoute, idParams } from "./routes.ts";

/** A file on a ticket, as a ticket's answer lists it (the bytes are at its own URL, for those who may read the ticket). */
export const attachmentSchema = z.object({
  id: z.uuid(),
  /** The reply it came with; null: the ticket's first message. */
  comment_id: z.uuid().nullable(),
  filename: z.string(),
  /** What the bytes are (checked on them), not what the sender said. */
  content_type: z.string(),
  size: z.number().int(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * The defaults of the limits (the API's configuration can change them: ATTACHMENT_MAX_FILE_MB,
 * ATTACHMENT_MAX_MESSAGE_MB, ATTACHMENTS_PER_MESSAGE). Mail over them keeps what fits, with a note on the ticket; an
 * upload over them is refused.
 */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENT_MESSAGE_MAX_BYTES = 50 * 1024 * 1024;
export const ATTACHMENTS_PER_MESSAGE = 10;
/** The most files the contract lets a message name whatever the configuration; the configured count is checked too. */
export const ATTACHMENT_IDS_CAP = 100;

/** The ids of files uploaded for a message (a reply, a new ticket), attached with it. */
export const attachmentIds = z
  .array(z.uuid("Each attachment must be an uploaded file's id"))
  .max(ATTACHMENT_IDS_CAP, `A message can have at most ${ATTACHMENT_IDS_CAP} files`);

/** Images a browser may show inline: never SVG (it can carry script). */
export const INLINE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

export const attachmentAnswer = z.object({ attachment: attachmentSchema });

/** Uploading a file for a reply: its bytes are the body (application/octet-stream), its name is here. */
export const uploadAttachmentQuery = z.object({
  filename: z.string().max(1000, "The file name must be at most 1000 characters").default(""),
});

// Routes -------------------------------------------------------------------------------------------------------------

const fileParams = z.object({ id: z.string(), attachmentId: z.string() });
/** An upload's own failures: a file over the limits, a body that is not a file's bytes. */
const uploadErrors = ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] as const;
const fileAnswer = z.unknown().describe("The file's bytes");

/**
 * A ticket's files: uploaded by its organization's members, or by its customer in the portal, and served to whoever may
 * read the message they came with. The limits they are held to are attachmentLimitsApi's (attachment-limits.ts).
 */
export const attachmentsApi = {
  uploadForReply: defineRoute({
    method: "POST",
    path: "/api/tickets/:id/attachments",
    summary: "Upload a file for a reply (the body is the file, application/octet-stream); attach it by its id",
    tags: ["tickets"],
    access: "authenticated",
    params: idParams,
    query: uploadAttachmentQuery,
    answers: { 201: attachmentAnswer },
    errors: uploadErrors,
  }),
  upload: defineRoute({
    method: "POST",
    path: "/api/attachments",
    summary:
      "Upload a file for a ticket you are creating (the body is the file, application/octet-stream); send its id with it",
    tags: ["tickets"],
    access: "authenticated",
    query: uploadAttachmentQuery,
    answers: { 201: attachmentAnswer },
    errors: uploadErrors,
  }),
  file: defineRoute({
    method: "GET",
    path: "/api/tickets/:id/attachments/:attachmentId",
    summary: "A file of a ticket: shown inline when a safe image, else a download",
    tags: ["tickets"],
    access: "authenticated",
    actors: ["api_key"],
    params: fileParams,
    answers: { 200: fileAnswer },
  }),
  portalUpload: defineRoute({
    method: "POST",
    path: "/api/portal/attachments",
    summary:
      "Upload a file for a reply or a new ticket (the body is the file, application/octet-stream); send its id with it",
    tags: ["customer portal"],
    access: "authenticated",
    actors: ["contact"],
    query: uploadAttachmentQuery,
    answers: { 201: attachmentAnswer },
    errors: uploadErrors,
  }),
};
