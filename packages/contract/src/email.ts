import { z } from "zod";
import { defineRoute, idParams } from "./routes.ts";

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
/**
 * The loop guard: past this many messages a minute from one sender to one organization, the rest are still filed but
 * answered by nothing automatic (no acknowledgement, no rule's reply), so a loop with an auto-responder ends here and
 * no person's message is lost. New tickets among them carry the LOOP_GUARD_TAG.
 */
export const INBOUND_PER_SENDER_PER_MINUTE = 10;
/** The tag of a ticket opened by a message past the loop guard (it got no acknowledgement). */
export const LOOP_GUARD_TAG = "loop-guard";
/**
 * The flood guard of the SMTP receiver: past this many messages a minute from one sender to one organization, a
 * message is refused with a temporary error (451), so the sending server keeps it and tries again later.
 */
export const INBOUND_DEFER_PER_SENDER_PER_MINUTE = 30;

/**
 * An email address as RFC 6531/6532 allow it: letters and digits of any script in the local part and the domain
 * (jøran@blåbærsyltetøy.gulp, 用户@例子.广告), otherwise the shape of zod's own check (no leading, trailing or doubled
 * dot; a top-level domain of letters, or its ASCII form xn--...).
 */
export const INTERNATIONAL_EMAIL =
  /^(?!\.)(?!.*\.\.)[\p{L}\p{M}\p{N}_'+\-.]*[\p{L}\p{M}\p{N}_+-]@(?:[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}-]*\.)+(?:[\p{L}\p{M}]{2,}|xn--[a-z0-9-]{2,})$/iu;

/** An organization's inbound address: its slug at the INBOUND_DOMAIN. */
export const inboundAddress = (slug: string, domain: string) => `${slug}@${domain}`;

/** The address a ticket's emails reply to: the organization's, with the ticket's number after a plus. */
export const ticketReplyAddress = (slug: string, domain: string, ticketNumber: number) =>
  `${slug}+t${ticketNumber}@${domain}`;

/**
 * A message the receiver kept without filing it (ignored, rejected), or filed without answering it (received past the
 * loop guard: ticket_id is where); Email Settings shows the latest to admins.
 */
export const unfiledMailSchema = z.object({
  id: z.uuid(),
  received_at: z.string(),
  address: z.string(),
  subject: z.string(),
  status: z.enum(["ignored", "rejected", "received"]),
  reason: z.string().nullable(),
  /** The ticket a message received past the loop guard is filed on (null for the others, or once it is deleted). */
  ticket_id: z.uuid().nullable(),
  /** The raw message was kept (its first 256 KB) and can be downloaded. */
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

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["email"];

/** What the receiver kept without filing (admins), a ticket's received emails and one email as it came (staff). */
export const emailApi = {
  unfiled: defineRoute({
    method: "GET",
    path: "/api/email/unfiled",
    summary: "The latest inbound messages kept without filing (bounces, auto-replies, unreadable), with why",
    tags,
    access: "admin",
    answers: { 200: unfiledMailAnswer },
  }),
  ofTicket: defineRoute({
    method: "GET",
    path: "/api/tickets/:id/emails",
    summary: "The emails received on a ticket (its first message has no comment), and which have HTML",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: ticketEmailsAnswer },
  }),
  original: defineRoute({
    method: "GET",
    path: "/api/email/messages/:id",
    summary: "A received email as it came: its HTML is a stranger's, to be sanitized and framed by whoever shows it",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: originalEmailAnswer },
  }),
  unfiledRaw: defineRoute({
    method: "GET",
    path: "/api/email/unfiled/:id/raw",
    summary: "The raw text kept of an unfiled message, as a download",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: z.string().describe("The message as received (text/plain)") },
  }),
};
