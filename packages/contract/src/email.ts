import { z } from "zod";

/**
 * The email channel (docs/decisions/2026-11-25-email-channel.md): what the contract says about mail in and out.
 */

/** Where Cove stands with one email: outbound (sending, sent, failed) or inbound (received, ignored, rejected). */
export const EMAIL_STATUSES = ["sending", "sent", "failed", "received", "ignored", "rejected"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What an outbound email was: a public reply on a ticket, or the acknowledgement of a ticket opened by email. */
export const OUTBOUND_KINDS = ["reply", "acknowledgement"] as const;

/** The delivery of a reply, as the comment shows it. */
export const COMMENT_EMAIL_STATUSES = ["sending", "sent", "failed"] as const;
export type CommentEmailStatus = (typeof COMMENT_EMAIL_STATUSES)[number];

/** Inbound limits: the SMTP receiver refuses larger messages; a message with more header lines is kept, not read. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;
export const INBOUND_MAX_HEADER_LINES = 1000;
/** Messages one sender may send one organization per minute before the rest are ignored (mail loops end here). */
export const INBOUND_PER_SENDER_PER_MINUTE = 10;

/** An organization's inbound address: its slug at the INBOUND_DOMAIN. */
export const inboundAddress = (slug: string, domain: string) => `${slug}@${domain}`;

/** The address a ticket's emails reply to: the organization's, with the ticket's number after a plus. */
export const ticketReplyAddress = (slug: string, domain: string, ticketNumber: number) =>
  `${slug}+t${ticketNumber}@${domain}`;

/** A message the receiver kept without filing it (Email Settings shows the latest to admins). */
export const unfiledMailSchema = z.object({
  id: z.uuid(),
  received_at: z.string(),
  address: z.string(),
  subject: z.string(),
  status: z.enum(["ignored", "rejected"]),
  reason: z.string().nullable(),
  /** The raw message was kept (it was rejected or could not be read) and can be downloaded. */
  has_raw: z.boolean(),
});
export type UnfiledMail = z.infer<typeof unfiledMailSchema>;
export const unfiledMailAnswer = z.object({ messages: z.array(unfiledMailSchema) });
export type UnfiledMailAnswer = z.infer<typeof unfiledMailAnswer>;
/** How many of the latest unfiled messages Email Settings lists. */
export const UNFILED_MAIL_SHOWN = 50;

/** A stored message came in (the receiver, an import) or went out (a reply, an acknowledgement). */
export const EMAIL_DIRECTIONS = ["in", "out"] as const;

/** The HTML of a received message kept for "View original email", at most this many characters. */
export const INBOUND_HTML_KEPT = 512 * 1024;

/** GET /api/tickets/{id}/emails: the messages received on a ticket (its first message: comment_id null). */
export const ticketEmailSchema = z.object({
  id: z.uuid(),
  comment_id: z.uuid().nullable(),
  address: z.string(),
  subject: z.string(),
  received_at: z.string(),
  has_html: z.boolean(),
});
export type TicketEmail = z.infer<typeof ticketEmailSchema>;
export const ticketEmailsAnswer = z.object({ emails: z.array(ticketEmailSchema) });
export type TicketEmailsAnswer = z.infer<typeof ticketEmailsAnswer>;

/** GET /api/email/messages/{id}: a received message as it came, its HTML unsanitized (the viewer sanitizes it). */
export const originalEmailAnswer = z.object({
  email: ticketEmailSchema.extend({ ticket_id: z.uuid().nullable(), html: z.string().nullable() }),
});
export type OriginalEmailAnswer = z.infer<typeof originalEmailAnswer>;
