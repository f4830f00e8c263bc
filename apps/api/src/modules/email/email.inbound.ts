import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS, formatBytes } from "@cove/contract/attachment-limits.ts";
import {
  INBOUND_HTML_KEPT,
  INBOUND_MAX_HEADER_LINES,
  INBOUND_PER_SENDER_PER_MINUTE,
  LOOP_GUARD_TAG,
} from "@cove/contract/email.ts";
import type { ActorRef } from "@cove/contract/events.ts";
import { createTicketBody } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { type ParsedMail, simpleParser } from "mailparser";
import { type Db, queryRows, type Tx } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { emitterIn, type TenantCtx, withSystem } from "../../platform/tenancy.ts";
import { putAttachment } from "../attachments/index.ts";
import { findOrCreateContact } from "../contacts/index.ts";
import { addChannelReply, changeTicket, openTicket, ticketsAnswerableBy } from "../tickets/index.ts";
import {
  automatedMail,
  messageIds,
  newTextOfReply,
  normalizeLineEndings,
  reportsFailure,
  subjectTicketNumber,
  textOfHtml,
  unnamedFilename,
} from "./email.classify.ts";
import { markBounced } from "./email.outbound.ts";
import { liveMailFrom } from "./email.queries.ts";
import type { SenderVerdict } from "./email.sender-check.ts";

/** One message for one organization, as the receiver got it. */
export interface InboundMail {
  raw: Buffer;
  /** The envelope sender (MAIL FROM); null for the null return path "<>". */
  envelopeFrom: string | null;
  /** What followed the plus in the address it was sent to (e.g. "t42": ticket 42), if anything. */
  tag: string | null;
  /** Whether the From address was checked and found forged or verified (email.sender-check.ts); absent: unchecked. */
  sender?: SenderVerdict | null;
  /** What a message's files may be (ATTACHMENT_* configuration); the defaults when absent. */
  attachmentLimits?: AttachmentLimits;
}

/** How a message reaches receiveMail other than by the SMTP receiver (a mailbox import). */
export interface ReceiveOptions {
  /** A mailbox's past mail: no loop guard (old mail is no loop) and no acknowledgement (nobody waits for one). */
  history?: boolean;
  /** The Message-ID to file the message under when it has none (an import's hash of its source), so it is filed once. */
  fallbackMessageId?: string;
  /**
   * Runs in the transaction that records the message's outcome (the import moves its progress there, so a message
   * is counted exactly when it is filed); throwing rolls the filing back and reaches the caller as FilingAborted.
   */
  onFiled?: (tx: Tx, outcome: InboundOutcome) => Promise<void>;
  /** The organization refusing tickets (read-only, the plan's monthly limit) throws rather than keeping the message. */
  throwRefusals?: boolean;
  /**
   * The SMTP receiver's flood guard: from this many live messages a minute from one sender on, a message is not filed
   * but answered "deferred", and the receiver refuses it with a temporary error so the sending server tries again.
   * Absent (an import, whose mail waits in its mailbox anyway): everything is filed.
   */
  deferAbove?: number;
}

/** onFiled refused the outcome: nothing of the message was kept. */
export class FilingAborted extends Error {}

/** Refusals that are about the organization, not the message: an import waits instead of failing the message. */
const ORGANIZATION_REFUSALS = new Set(["READ_ONLY", "TICKET_LIMIT"]);

export type InboundOutcome =
  | { result: "ticket"; ticketId: string; emailId: string }
  | { result: "comment"; ticketId: string; commentId: string; emailId: string }
  | { result: "ignored"; reason: string; bounced?: number }
  | { result: "duplicate" }
  | { result: "rejected"; reason: string }
  | { result: "deferred"; reason: string };

const MAX_SUBJECT = 250;
const MAX_BODY = 50_000;
/** Raw text kept for an admin when a message is rejected: enough to see what it was. */
const MAX_KEPT_RAW = 256 * 1024;
/** HTML over this size is not turned into text (a pathological message cannot stall the receiver). */
const MAX_HTML_TO_PARSE = 2 * 1024 * 1024;

const clean = (text: string) => text.replaceAll("\u0000", "").trim();
const cut = (text: string, max: number, note: string) =>
  text.length > max ? `${text.slice(0, max - note.length - 2)}\n\n${note}` : text;

/** Header lines (not continuation lines) before the first empty line. */
function headerLineCount(raw: Buffer): number {
  const head = raw.subarray(0, 1024 * 1024).toString("latin1");
  const end = head.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? head : head.slice(0, end)).split(/\r?\n/);
  return lines.filter((line) => line.length > 0 && !/^[ \t]/.test(line)).length;
}

async function record(
  tx: Tx,
  orgId: string,
  values: {
    status: "received" | "ignored" | "rejected";
    messageId: string | null;
    references: string[];
    address: string;
    subject: string;
    reason?: string;
    ticketId?: string;
    commentId?: string;
    raw?: Buffer;
    html?: string | null;
    history?: boolean;
  },
): Promise<string | null> {
  const raw = values.raw ? values.raw.subarray(0, MAX_KEPT_RAW).toString("utf8").replaceAll("\u0000", "") : null;
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into email_messages (organization_id, direction, ticket_id, comment_id, message_id, "references", address,
                                    subject, status, reason, raw, html, history)
        values (${orgId}, 'in', ${values.ticketId ?? null}, ${values.commentId ?? null}, ${values.messageId},
                ${`{${values.references.map((r) => `"${r.replace(/["\\]/g, "")}"`).join(",")}}`}::text[],
                ${clean(values.address).slice(0, 320)}, ${clean(values.subject).slice(0, MAX_SUBJECT)}, ${values.status},
                ${values.reason ?? null}, ${raw}, ${values.html ? values.html.replaceAll("\u0000", "") : null},
                ${values.history ?? false})
        on conflict (organization_id, direction, message_id) where message_id is not null do nothing
        returning id`,
  );
  return row?.id ?? null;
}

/** A message the receiver keeps without acting on it, with why (and its raw text when it could not be read). */
async function keep(
  db: Db,
  orgId: string,
  status: "ignored" | "rejected",
  reason: string,
  meta: {
    messageId: string | null;
    references: string[];
    address: string;
    subject: string;
    raw?: Buffer;
    history?: boolean;
  },
  opts: ReceiveOptions,
  outcome: InboundOutcome = { result: status, reason },
): Promise<InboundOutcome> {
  await withSystem(db, orgId, "email", async (ctx) => {
    await record(ctx.db, orgId, { status, reason, ...meta });
    await filed(ctx.db, outcome, opts);
  });
  return outcome;
}

async function filed(tx: Tx, outcome: InboundOutcome, opts: ReceiveOptions): Promise<InboundOutcome> {
  if (!opts.onFiled) return outcome;
  try {
    await opts.onFiled(tx, outcome);
  } catch (err) {
    throw new FilingAborted(err instanceof Error ? err.message : String(err), { cause: err });
  }
  return outcome;
}

interface TicketMatch {
  id: string;
  status: string;
  contact_id: string | null;
}

/**
 * Who the sender is to the organization: an active member (who may answer any ticket), or a customer. A ticket found
 * from the message is answered only by its own requester or a member, so a forged In-Reply-To or ticket number from
 * anyone else opens a new ticket instead of writing into someone else's.
 */
async function findThread(tx: Tx, orgId: string, sender: string, refs: string[], number: number | null) {
  const [member] = await queryRows<{ id: string }>(
    tx,
    sql`select id from users where organization_id = ${orgId} and lower(email) = ${sender} and status = 'active'`,
  );
  const answerable = ticketsAnswerableBy(orgId, member ? null : sender);
  let ticket: TicketMatch | undefined;
  if (refs.length > 0) {
    [ticket] = await queryRows<TicketMatch>(
      tx,
      sql`select t.id, t.status, t.contact_id from email_messages m
          join (${answerable}) t on t.id = m.ticket_id
          where m.organization_id = ${orgId} and m.status <> 'ignored'
            and m.message_id in (${sql.join(
              refs.map((r) => sql`${r}`),
              sql`, `,
            )})
          order by m.created_at desc limit 1`,
    );
  }
  if (!ticket && number !== null) {
    [ticket] = await queryRows<TicketMatch>(
      tx,
      sql`select t.id, t.status, t.contact_id from (${answerable}) t where t.ticket_number = ${number}`,
    );
  }
  return { memberId: member?.id ?? null, ticket };
}

/**
 * The files of a message that are kept (the first of them within the size per file, while the message's total and
 * count allow), and how many are not.
 */
function keptAttachments(
  parsed: ParsedMail,
  limits: AttachmentLimits,
): {
  kept: { filename: string | undefined; bytes: Buffer }[];
  left: number;
} {
  const files = parsed.attachments.filter((a) => Buffer.isBuffer(a.content) && a.content.length > 0);
  const kept: { filename: string | undefined; bytes: Buffer }[] = [];
  let total = 0;
  for (const a of files) {
    const size = a.content.length;
    if (kept.length >= limits.max_files) break;
    if (size > limits.max_file_bytes || total + size > limits.max_message_bytes) continue;
    total += size;
    kept.push({ filename: a.filename || unnamedFilename(a.contentType), bytes: a.content });
  }
  return { kept, left: files.length - kept.length };
}

/** What the ticket's text ends with when files were left out: how many, and the limits that left them out. */
function leftOutNote(left: number, limits: AttachmentLimits): string {
  if (left === 0) return "";
  return `\n\n[${left} attachment${left === 1 ? " was" : "s were"} not kept: at most ${limits.max_files} files of ${formatBytes(limits.max_file_bytes)} each, ${formatBytes(limits.max_message_bytes)} in all.]`;
}

/** A message's text; an HTML-only one (its HTML inside a multipart, where the parser makes no text) from its HTML. */
function textOf(parsed: ParsedMail): string {
  return (
    clean(parsed.text ?? "") ||
    (typeof parsed.html === "string" ? clean(textOfHtml(parsed.html, MAX_HTML_TO_PARSE)) : "")
  );
}

/** Whether the organization already received a message with this Message-ID (the sender sent it again). */
async function alreadyReceived(tx: Tx, orgId: string, messageId: string): Promise<boolean> {
  const [seen] = await queryRows<{ id: string }>(
    tx,
    sql`select id from email_messages where organization_id = ${orgId} and direction = 'in'
          and message_id = ${messageId}`,
  );
  return seen !== undefined;
}

/** Reads a message; null when it cannot be read at all. */
async function parse(raw: Buffer): Promise<ParsedMail | null> {
  try {
    return await simpleParser(raw, {
      skipImageLinks: true,
      skipTextToHtml: true,
      maxHtmlLengthToParse: MAX_HTML_TO_PARSE,
    });
  } catch {
    return null;
  }
}

/**
 * One inbound message for one organization: a new ticket, a reply on the ticket it answers, or kept aside (a bounce,
 * an auto-reply, a message that could not be read). A person's message is never dropped: past the loop guard it is
 * filed without an acknowledgement; past the flood guard (deferAbove) it is not taken at all ("deferred"), so its
 * sender keeps it and tries again. Never throws for anything in the message.
 */
export async function receiveMail(
  db: Db,
  orgId: string,
  mail: InboundMail,
  opts: ReceiveOptions = {},
): Promise<InboundOutcome> {
  const raw = normalizeLineEndings(mail.raw);
  const unread = {
    history: opts.history,
    messageId: opts.fallbackMessageId ?? null,
    references: [],
    address: mail.envelopeFrom ?? "",
    subject: "",
    raw,
  };
  if (headerLineCount(raw) > INBOUND_MAX_HEADER_LINES) {
    return keep(db, orgId, "rejected", `More than ${INBOUND_MAX_HEADER_LINES} header lines.`, unread, opts);
  }
  const parsed = await parse(raw);
  if (!parsed) return keep(db, orgId, "rejected", "The message could not be read.", unread, opts);

  const from = parsed.from?.value.find((a) => a.address);
  const sender = clean(from?.address ?? mail.envelopeFrom ?? "").toLowerCase();
  const messageId = messageIds(parsed.messageId)[0] ?? opts.fallbackMessageId ?? null;
  const references = [...messageIds(parsed.inReplyTo), ...messageIds(parsed.references)].slice(-50);
  const subject = clean(parsed.subject ?? "");
  const meta = { messageId, references, address: sender, subject, history: opts.history };
  // The HTML as it came, for "View original email" (the text is what the ticket shows); none past the size kept.
  const html = typeof parsed.html === "string" && parsed.html.length <= INBOUND_HTML_KEPT ? parsed.html : null;

  const automated = automatedMail(parsed, mail.envelopeFrom, sender, raw.subarray(0, MAX_KEPT_RAW).toString("latin1"));
  if (automated) {
    // Only a failed delivery marks Cove's own messages failed (a delay report, a read receipt or a complaint does not).
    const text = raw.toString("utf8");
    const bounced = automated.kind === "bounce" && reportsFailure(text) ? await markBounced({ db }, orgId, text) : 0;
    // Its text is kept for an admin (a complaint or a bounce can say what a customer's address is up to).
    return keep(db, orgId, "ignored", automated.reason, { ...meta, raw }, opts, {
      result: "ignored",
      reason: automated.reason,
      bounced,
    });
  }
  if (!sender.includes("@")) return keep(db, orgId, "rejected", "The message has no sender address.", unread, opts);

  try {
    return await withSystem(db, orgId, "email", async (system) => {
      const tx = system.db;
      if (messageId && (await alreadyReceived(tx, orgId, messageId))) return filed(tx, { result: "duplicate" }, opts);
      const recent = opts.history ? 0 : await liveMailFrom(tx, orgId, sender);
      if (opts.deferAbove !== undefined && recent >= opts.deferAbove) {
        // Nothing is kept: the sending server keeps the message and tries again later.
        return { result: "deferred", reason: `More than ${opts.deferAbove} messages a minute from this sender.` };
      }
      // Past the loop guard a message is filed as any other, but nothing automatic answers it: a loop with an
      // auto-responder ends here, and a person writing this fast loses nothing.
      const loopGuard = recent >= INBOUND_PER_SENDER_PER_MINUTE;
      const guardReason = loopGuard
        ? `More than ${INBOUND_PER_SENDER_PER_MINUTE} messages a minute from this sender: filed without an acknowledgement.`
        : undefined;

      const tagNumber = /^t(\d{1,9})$/.exec(mail.tag ?? "")?.[1];
      const number = tagNumber ? Number(tagNumber) : subjectTicketNumber(subject);
      // A sender whose domain says the From address is forged is nobody Cove knows: never a member, never the
      // requester of an existing ticket. Its message becomes a new ticket marked unverified.
      const forged = mail.sender?.verdict === "forged";
      const { memberId, ticket } = forged
        ? { memberId: null, ticket: undefined }
        : await findThread(tx, orgId, sender, references, number);
      const name = clean(from?.name ?? "") || sender;
      const text = textOf(parsed);
      const limits = mail.attachmentLimits ?? DEFAULT_ATTACHMENT_LIMITS;
      const files = keptAttachments(parsed, limits);
      const note = leftOutNote(files.left, limits);
      const as = async (actor: ActorRef): Promise<TenantCtx> => ({
        orgId,
        actor,
        db: tx,
        emit: emitterIn(db, tx, orgId, actor),
      });
      // The message as filed, on its ticket (as the reply it became, or as the new ticket), and its event.
      const received = async (ctx: TenantCtx, ticketId: string, commentId: string | null) => {
        const emailId = await record(tx, orgId, {
          status: "received",
          ...meta,
          ticketId,
          ...(commentId ? { commentId } : {}),
          html,
          reason: guardReason,
        });
        if (!emailId) throw new Error("inbound email row not written");
        await ctx.emit("email.received", {
          email_id: emailId,
          ticket_id: ticketId,
          comment_id: commentId,
          new_ticket: commentId === null,
          ...(opts.history ? { history: true } : {}),
          ...(loopGuard ? { loop_guard: true } : {}),
        });
        return emailId;
      };

      if (ticket && ticket.status !== "closed") {
        const contactId = memberId ? null : await findOrCreateContact(system, { name, email: sender });
        const ctx = await as(memberId ? { kind: "staff", id: memberId } : { kind: "contact", id: contactId ?? "" });
        const body =
          cut(
            newTextOfReply(text) || "(This email had no text.)",
            MAX_BODY - note.length,
            "[The rest of this email was cut: it was too long.]",
          ) + note;
        // A read-only organization files no reply either: the message is kept unfiled with the reason, as new mail is.
        const comment = await addChannelReply(ctx, ticket.id, { body, is_public: true });
        for (const file of files.kept) {
          await putAttachment(tx, orgId, { ticketId: ticket.id, commentId: comment.id, ...file });
        }
        if (!memberId && (ticket.status === "solved" || ticket.status === "pending")) {
          await changeTicket(ctx, ticket.id, { status: "open" });
        }
        const emailId = await received(ctx, ticket.id, comment.id);
        return filed(tx, { result: "comment", ticketId: ticket.id, commentId: comment.id, emailId }, opts);
      }

      const warning = forged
        ? `[Cove could not verify that this email came from ${sender}: ${mail.sender?.summary}. Do not trust links or requests in it without checking.]\n\n`
        : "";
      const input = createTicketBody.safeParse({
        subject: subject.slice(0, MAX_SUBJECT) || "(no subject)",
        description:
          warning +
          cut(
            text || "(This email had no text.)",
            MAX_BODY - note.length - warning.length,
            "[The rest of this email was cut: it was too long.]",
          ) +
          note,
        priority: "normal",
        requester_name: name.slice(0, 120),
        requester_email: sender,
        tags: [...(forged ? ["unverified-sender"] : []), ...(loopGuard ? [LOOP_GUARD_TAG] : [])],
      });
      if (!input.success) {
        const reason = `The message could not become a ticket: ${input.error.issues[0]?.message ?? "invalid"}.`;
        await record(tx, orgId, { status: "rejected", reason, ...meta, raw });
        return filed(tx, { result: "rejected", reason }, opts);
      }
      const contactId = await findOrCreateContact(system, { name, email: sender });
      const ctx = await as({ kind: "contact", id: contactId });
      const created = await openTicket(ctx, input.data, { source: "email", contactId });
      for (const file of files.kept) {
        await putAttachment(tx, orgId, { ticketId: created.id, commentId: null, ...file });
      }
      const emailId = await received(ctx, created.id, null);
      return filed(tx, { result: "ticket", ticketId: created.id, emailId }, opts);
    });
  } catch (err) {
    if (err instanceof FilingAborted) throw err;
    if (opts.throwRefusals && err instanceof AppError && ORGANIZATION_REFUSALS.has(err.code)) throw err;
    // Plan limits, read-only mode and the like refuse the ticket; the message is kept with the reason.
    const reason = err instanceof AppError ? err.message : "The message could not be filed.";
    return keep(db, orgId, "rejected", reason, { ...meta, messageId: null, raw }, opts);
  }
}

/**
 * A message refused before it could be read (a mailbox's message over the size limit): kept as rejected with the
 * reason and the first part of its text, as the receiver keeps what it cannot file.
 */
export function refuseMail(
  db: Db,
  orgId: string,
  head: Buffer,
  reason: string,
  opts: ReceiveOptions = {},
): Promise<InboundOutcome> {
  const meta = {
    messageId: opts.fallbackMessageId ?? null,
    references: [],
    address: "",
    subject: "",
    raw: head,
    history: opts.history,
  };
  return keep(db, orgId, "rejected", reason, meta, opts);
}
