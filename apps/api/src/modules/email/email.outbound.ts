import { INBOUND_PER_SENDER_PER_MINUTE, ticketReplyAddress } from "@cove/contract/email.ts";
import type { DomainEvent } from "@cove/contract/events.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, type Tx } from "../../platform/db.ts";
import type { JobAttempt } from "../../platform/jobs.ts";
import { type MailBrand, type Mailer, type MailMessage, mailBrand, mailHtml } from "../../platform/mail.ts";
import { withSystem } from "../../platform/tenancy.ts";
import { filesOfComment } from "../attachments/index.ts";
import { findContactCard } from "../contacts/index.ts";
import { emailSettingsOf, readBrand } from "../settings/index.ts";
import { findComment, findTicketBasics } from "../tickets/index.ts";
import { lastReceivedLoopGuarded } from "./email.queries.ts";

/** What the email channel runs with: INBOUND_DOMAIN, and the domain of the Message-IDs Cove writes. */
export interface EmailChannel {
  /** null: no receiver domain, so replies cannot come back by email (Reply-To falls back to Email Settings). */
  inboundDomain: string | null;
  /** The right-hand side of Cove's Message-IDs: INBOUND_DOMAIN, else PUBLIC_URL's host. */
  messageDomain: string;
}

export interface OutboundDeps {
  db: Db;
  mailer: Mailer;
  channel: EmailChannel;
  log: FastifyBaseLogger;
  /** PUBLIC_URL: where the organization's logo is served, for the messages' HTML part. */
  publicUrl: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const threadSubject = (subject: string, ticketNumber: number) =>
  `Re: ${oneLine(subject).slice(0, 200)} [#${ticketNumber}]`;

interface TicketMailRow {
  ticket_number: number;
  subject: string;
  requester_email: string;
  slug: string;
  organization: string;
  sender_name: string | null;
  reply_to: string | null;
  signature: string | null;
  brand: MailBrand;
}

/**
 * What an outbound email needs of its ticket (through tickets), its requester's contact (contacts: the address they
 * use now), the organization and its sender settings (settings), read under the organization's confinement.
 */
async function ticketMailRow(
  db: Tx,
  orgId: string,
  ticketId: string,
  publicUrl: string,
): Promise<TicketMailRow | null> {
  const ticket = await findTicketBasics(db, orgId, ticketId);
  if (!ticket) return null;
  const contact = ticket.contactId ? await findContactCard(db, orgId, ticket.contactId) : null;
  const org = await readBrand(db, orgId);
  const settings = await emailSettingsOf(db, orgId);
  return {
    ticket_number: ticket.ticketNumber,
    subject: ticket.subject,
    requester_email: contact?.email ?? ticket.requesterEmail,
    slug: org.slug,
    organization: org.name,
    sender_name: settings.senderName,
    reply_to: settings.replyTo,
    signature: settings.signature,
    brand: mailBrand(org, publicUrl),
  };
}

/** The Message-IDs of a ticket's thread so far, oldest first (the last 20: References stays a sane length). */
const threadIds = (orgId: string, ticketId: string, except: string) =>
  sql`select message_id from (
        select message_id, created_at from email_messages
        where organization_id = ${orgId} and ticket_id = ${ticketId} and message_id is not null
          and message_id <> ${except} and status <> 'ignored'
        order by created_at desc limit 20) m
      order by created_at`;

interface Prepared {
  emailId: string;
  ticketId: string;
  commentId: string | null;
  message: MailMessage;
}

/**
 * Records the outbound email (once: its Message-ID is derived from what it carries, so a retried job finds the same
 * row) and composes it. Answers null when there is nothing to send: already sent, or no address to send to.
 */
async function prepare(
  deps: OutboundDeps,
  orgId: string,
  spec: {
    kind: "reply" | "acknowledgement";
    ticketId: string;
    commentId: string | null;
    messageId: string;
    /** The message this one answers, when not simply the thread's latest (an acknowledgement answers its message). */
    inReplyToEmail?: string;
    body: (row: TicketMailRow) => string;
    headers?: Record<string, string>;
  },
): Promise<Prepared | null> {
  return withSystem(deps.db, orgId, "email", async (ctx) => {
    const row = await ticketMailRow(ctx.db, orgId, spec.ticketId, deps.publicUrl);
    // An erased customer's address is a placeholder under .invalid (RFC 6761: never delivered): nothing to send.
    if (!row?.requester_email || row.requester_email.toLowerCase().endsWith(".invalid")) return null;
    const to = row.requester_email.toLowerCase();
    const subject = threadSubject(row.subject, row.ticket_number);
    const [email] = await queryRows<{ id: string; status: string }>(
      ctx.db,
      sql`insert into email_messages as m (organization_id, direction, kind, ticket_id, comment_id, message_id, address,
                                           subject, status)
          values (${orgId}, 'out', ${spec.kind}, ${spec.ticketId}, ${spec.commentId}, ${spec.messageId}, ${to},
                  ${subject}, 'sending')
          on conflict (organization_id, direction, message_id) where message_id is not null
          do update set updated_at = now()
          returning m.id, m.status`,
    );
    if (!email || email.status === "sent") return null;
    const answered = spec.inReplyToEmail
      ? sql`select message_id from email_messages
            where organization_id = ${orgId} and id = ${spec.inReplyToEmail} and message_id is not null`
      : threadIds(orgId, spec.ticketId, spec.messageId);
    const thread = (await queryRows<{ message_id: string }>(ctx.db, answered)).map((r) => r.message_id);
    const { inboundDomain } = deps.channel;
    const signature = row.signature?.trim();
    const body = spec.body(row);
    return {
      emailId: email.id,
      ticketId: spec.ticketId,
      commentId: spec.commentId,
      message: {
        to,
        subject,
        text: signature ? `${body}\n\n-- \n${signature}` : body,
        // The same words, led by the organization's logo and colour; a blank line parts paragraphs, as in the text.
        html: mailHtml({
          brand: row.brand,
          paragraphs: body.split(/\r?\n[ \t]*\r?\n/).filter((p) => p.trim() !== ""),
          ...(signature ? { signature } : {}),
        }),
        fromName: oneLine(row.sender_name || row.organization),
        replyTo: inboundDomain
          ? ticketReplyAddress(row.slug, inboundDomain, row.ticket_number)
          : (row.reply_to ?? undefined),
        messageId: spec.messageId,
        inReplyTo: thread.at(-1),
        references: thread.length > 0 ? thread : undefined,
        headers: spec.headers,
        // Bounces come back to the receiver, which marks the message failed.
        envelopeFrom: inboundDomain ? `${row.slug}+bounces@${inboundDomain}` : undefined,
      },
    };
  });
}

/** Sends a prepared email and records the outcome; a failure is final on the job's last attempt. */
async function deliver(deps: OutboundDeps, orgId: string, prepared: Prepared, attempt: JobAttempt): Promise<void> {
  let error: unknown = null;
  try {
    await deps.mailer.send(prepared.message);
  } catch (err) {
    error = err;
  }
  const status = error === null ? "sent" : attempt.last ? "failed" : "sending";
  const reason =
    error === null ? null : `The mail server refused or could not be reached: ${String(error).slice(0, 300)}`;
  await settle(deps, orgId, prepared, status, reason);
  if (error !== null) throw error;
}

/** Records how an email stands; a final outcome (sent, failed) reaches the ticket's viewers. */
async function settle(
  deps: OutboundDeps,
  orgId: string,
  prepared: Prepared,
  status: "sent" | "failed" | "sending",
  reason: string | null,
): Promise<void> {
  await withSystem(deps.db, orgId, "email", async (ctx) => {
    await ctx.db.execute(
      sql`update email_messages set status = ${status}, reason = ${reason}, attempts = attempts + 1, updated_at = now()
          where organization_id = ${orgId} and id = ${prepared.emailId}`,
    );
    if (status !== "sending") {
      await ctx.emit("email.delivery_changed", {
        email_id: prepared.emailId,
        ticket_id: prepared.ticketId,
        comment_id: prepared.commentId,
        status,
      });
    }
  });
}

/**
 * A public reply by the team (a member, an API key or automation) is emailed to the requester. Internal notes never
 * are, nor the customer's own words (a reply from the portal or by email).
 */
export async function mailReply(
  deps: OutboundDeps,
  event: DomainEvent<"comment.added">,
  attempt: JobAttempt,
): Promise<void> {
  if (!event.data.is_public || event.actor.kind === "contact") return;
  const orgId = event.organization_id;
  const comment = await withSystem(deps.db, orgId, "email", (ctx) => findComment(ctx.db, orgId, event.data.comment_id));
  if (!comment?.isPublic) return;
  const prepared = await prepare(deps, orgId, {
    kind: "reply",
    ticketId: event.data.ticket_id,
    commentId: event.data.comment_id,
    messageId: `reply.${event.data.comment_id}@${deps.channel.messageDomain}`,
    body: (row) =>
      `${comment.body}\n\nReply to this email to answer; your reply is added to request #${row.ticket_number}.`,
  });
  if (!prepared) return;
  // A rule's reply to a message filed past the loop guard is not sent: it would keep a loop with an auto-responder
  // going (the rule's comment stays on the ticket). A person's reply always is sent.
  if (event.actor.kind === "system") {
    const guarded = await withSystem(deps.db, orgId, "email", (ctx) =>
      lastReceivedLoopGuarded(ctx.db, orgId, event.data.ticket_id),
    );
    if (guarded) {
      const reason = `Not sent: the customer's last email came past the loop guard (more than ${INBOUND_PER_SENDER_PER_MINUTE} messages a minute from that address), and nothing automatic answers it.`;
      await settle(deps, orgId, prepared, "failed", reason);
      return;
    }
  }
  const files = await withSystem(deps.db, orgId, "email", (ctx) =>
    filesOfComment(ctx.db, orgId, event.data.comment_id),
  );
  if (files.length > 0) {
    prepared.message.attachments = files.map((f) => ({
      filename: f.filename,
      content: f.bytes,
      contentType: f.contentType,
    }));
  }
  await deliver(deps, orgId, prepared, attempt);
}

/**
 * The acknowledgement of a ticket opened by email, when the organization has them on. Marked Auto-Submitted, so a
 * well-behaved auto-responder on the other side does not answer it.
 */
export async function mailAcknowledgement(
  deps: OutboundDeps,
  event: DomainEvent<"email.received">,
  attempt: JobAttempt,
): Promise<void> {
  // Past the loop guard nothing is acknowledged: that is what ends a loop with an auto-responder.
  if (!event.data.new_ticket || event.data.history || event.data.loop_guard) return;
  const orgId = event.organization_id;
  const settings = await withSystem(deps.db, orgId, "email", (ctx) => emailSettingsOf(ctx.db, orgId));
  if (!settings.acknowledge) return;
  const prepared = await prepare(deps, orgId, {
    kind: "acknowledgement",
    ticketId: event.data.ticket_id,
    commentId: null,
    messageId: `ack.${event.data.email_id}@${deps.channel.messageDomain}`,
    inReplyToEmail: event.data.email_id,
    headers: { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" },
    body: (row) =>
      [
        `Thank you for writing to ${oneLine(row.organization)}. We received your request and opened #${row.ticket_number} for it: “${oneLine(row.subject).slice(0, 200)}”.`,
        "We will answer by email. To add anything, reply to this email.",
      ].join("\n\n"),
  });
  if (prepared) await deliver(deps, orgId, prepared, attempt);
}

/**
 * A bounce names the Message-IDs of what it reports on (in its returned headers): those of Cove's own messages in
 * this organization are marked failed. Answers how many were.
 */
export async function markBounced(deps: Pick<OutboundDeps, "db">, orgId: string, raw: string): Promise<number> {
  const ids = [...new Set(raw.match(/<(?:reply|ack)\.[0-9a-f-]{36}@[^<>\s]{1,200}>/gi) ?? [])]
    .slice(0, 50)
    .map((id) => id.slice(1, -1));
  if (ids.length === 0) return 0;
  return withSystem(deps.db, orgId, "email", async (ctx) => {
    const rows = await queryRows<{ id: string; ticket_id: string | null; comment_id: string | null }>(
      ctx.db,
      sql`update email_messages set status = 'failed', reason = 'The recipient''s mail server returned it (a bounce).',
                 updated_at = now()
          where organization_id = ${orgId} and direction = 'out'
            and message_id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})
          returning id, ticket_id, comment_id`,
    );
    for (const row of rows) {
      if (!row.ticket_id) continue;
      await ctx.emit("email.delivery_changed", {
        email_id: row.id,
        ticket_id: row.ticket_id,
        comment_id: row.comment_id,
        status: "failed",
      });
    }
    return rows.length;
  });
}
