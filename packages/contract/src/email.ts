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
