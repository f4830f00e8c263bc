import { z } from "zod";
import { messageAnswer, requiredText } from "./auth.ts";
import { defineRoute, idParams } from "./routes.ts";

/**
 * Mailbox import over IMAP (docs/decisions/2026-11-25-mailbox-import.md): an admin connects a mailbox, Cove files its
 * history as the email channel files received mail, then keeps fetching what arrives.
 */

/**
 * importing: the history is being filed; watching: the history is done and new mail is fetched every minute; paused:
 * by an admin, or by Cove when the mail server refused it or the organization cannot take tickets (last_error says
 * which); cancelled: stopped for good, its password forgotten.
 */
export const MAILBOX_STATUSES = ["importing", "watching", "paused", "cancelled"] as const;
export type MailboxStatus = (typeof MAILBOX_STATUSES)[number];

/** Mailboxes one organization may connect. */
export const MAILBOXES_PER_ORGANIZATION = 5;
/** Messages one import job files before the next job takes over (memory does not grow with the mailbox). */
export const MAILBOX_BATCH_SIZE = 100;

const noNul = (s: string) => !s.includes("\u0000");

/** A host name (letters of any script are left to the resolver) or an IPv4/IPv6 address, no scheme, no port. */
export const mailHostField = z
  .string({ error: "Server is required" })
  .trim()
  .toLowerCase()
  .min(1, "Server is required")
  .max(253, "Server must be at most 253 characters")
  .regex(
    /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)*|\[?[0-9a-f:.]+\]?)$/u,
    "Server must be a host name such as imap.example.com, without https:// or a port",
  );

export const connectMailboxBody = z.object({
  host: mailHostField,
  port: z
    .number({ error: "Port must be a number such as 993" })
    .int("Port must be a whole number")
    .min(1, "Port must be between 1 and 65535")
    .max(65535, "Port must be between 1 and 65535"),
  /** TLS from the first byte (port 993); false: a plain connection (port 143), upgraded with STARTTLS when offered. */
  tls: z.boolean({ error: "TLS must be true or false" }),
  user: requiredText("User name", 320),
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(1000, "Password must be at most 1000 characters")
    .refine(noNul, "Password contains an invalid character"),
  folder: requiredText("Folder", 200).default("INBOX"),
});
export type ConnectMailboxBody = z.input<typeof connectMailboxBody>;

/** New sign-in details for a connected mailbox; an empty or missing password keeps the stored one. */
export const updateMailboxBody = connectMailboxBody.extend({
  password: z
    .string({ error: "Password must be text" })
    .max(1000, "Password must be at most 1000 characters")
    .refine(noNul, "Password contains an invalid character")
    .optional(),
});
export type UpdateMailboxBody = z.input<typeof updateMailboxBody>;

export const mailboxProgress = z.object({
  /** Messages in the folder: filed or skipped so far plus those still to fetch. */
  total: z.number().int(),
  imported: z.number().int(),
  /** Already filed (the same Message-ID, or the same source when it has none), bounces and automatic replies. */
  skipped: z.number().int(),
  /** Unreadable, over the size limit, or refused (kept in Mail not filed with the reason). */
  failed: z.number().int(),
  remaining: z.number().int(),
  /** Messages a second since the import last started or resumed; null before there is a measure. */
  per_second: z.number().nullable(),
  /** Seconds left at that pace; null when unknown or nothing is left. */
  eta_seconds: z.number().int().nullable(),
});
export type MailboxProgress = z.infer<typeof mailboxProgress>;

/** A connected mailbox as admins see it: never its password. */
export const mailboxSchema = z.object({
  id: z.uuid(),
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  user: z.string(),
  folder: z.string(),
  status: z.enum(MAILBOX_STATUSES),
  /** Why Cove paused it, or what went wrong last, in words an admin can act on. */
  last_error: z.string().nullable(),
  progress: mailboxProgress,
  connected_at: z.string(),
  /** When the mail server was last read. */
  checked_at: z.string().nullable(),
  /** When the history was all filed (then only new mail is fetched). */
  history_done_at: z.string().nullable(),
});
export type Mailbox = z.infer<typeof mailboxSchema>;
export const mailboxAnswer = z.object({ mailbox: mailboxSchema });
export const mailboxListAnswer = z.object({ mailboxes: z.array(mailboxSchema) });
export type MailboxListAnswer = z.infer<typeof mailboxListAnswer>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["email"];

/** Pausing, resuming or cancelling a mailbox's import: not possible in its present state (409). */
const mailboxAction = <const A extends "pause" | "resume" | "cancel">(action: A, summary: string) =>
  defineRoute({
    method: "POST",
    path: `/api/email/mailboxes/:id/${action}`,
    summary,
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: mailboxAnswer },
    errors: ["CONFLICT"],
  });

/** Mailbox import over IMAP (admins): connect, follow the progress, pause, resume, cancel, remove. */
export const mailboxesApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/email/mailboxes",
    summary: "The connected mailboxes with their import's progress",
    tags,
    access: "admin",
    answers: { 200: mailboxListAnswer },
  }),
  connect: defineRoute({
    method: "POST",
    path: "/api/email/mailboxes",
    summary: "Connect a mailbox over IMAP (tried first) and start importing it",
    tags,
    access: "admin",
    body: connectMailboxBody,
    answers: { 201: mailboxAnswer },
    /** The mailbox is already connected (409); it could not be reached or signed in to (422). */
    errors: ["CONFLICT", "MAILBOX_CONNECTION_FAILED"],
  }),
  update: defineRoute({
    method: "PUT",
    path: "/api/email/mailboxes/:id",
    summary: "Change a mailbox's sign-in details (tried first); an empty password keeps the saved one",
    tags,
    access: "admin",
    params: idParams,
    body: updateMailboxBody,
    answers: { 200: mailboxAnswer },
    errors: ["CONFLICT", "MAILBOX_CONNECTION_FAILED"],
  }),
  pause: mailboxAction("pause", "Pause a mailbox's import"),
  resume: mailboxAction("resume", "Resume a paused import where it stopped"),
  cancel: mailboxAction("cancel", "Stop importing for good and forget the password"),
  remove: defineRoute({
    method: "DELETE",
    path: "/api/email/mailboxes/:id",
    summary: "Remove a mailbox and its saved password (the tickets it made stay)",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
};
