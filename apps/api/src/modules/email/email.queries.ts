import {
  type OriginalEmailAnswer,
  type TicketEmail,
  UNFILED_MAIL_SHOWN,
  type UnfiledMail,
} from "@cove/contract/email.ts";
import { sql } from "drizzle-orm";
import { emailMailboxes, emailMessages } from "../../db/schema/email.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { findTicketRow } from "../tickets/index.ts";

/**
 * How many live messages (not a mailbox's past) one address sent the organization in the last minute, whatever became
 * of them: what the loop guard and the flood guard count.
 */
export async function liveMailFrom(db: Queryable, orgId: string, address: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from email_messages where organization_id = ${orgId} and direction = 'in'
          and address = ${address} and created_at > now() - interval '1 minute' and not history`,
  );
  return row?.n ?? 0;
}

/**
 * Whether the latest message received on a ticket was filed past the loop guard: a received message has a reason
 * only then (see record in email.inbound.ts).
 */
export async function lastReceivedLoopGuarded(db: Queryable, orgId: string, ticketId: string): Promise<boolean> {
  const [row] = await queryRows<{ guarded: boolean }>(
    db,
    sql`select reason is not null as guarded from email_messages
        where organization_id = ${orgId} and ticket_id = ${ticketId} and direction = 'in' and status = 'received'
        order by created_at desc, id desc limit 1`,
  );
  return row?.guarded ?? false;
}

/**
 * The latest messages an admin should know of, newest first: those the receiver kept without filing (bounces,
 * auto-replies, unreadable, refused), and those it filed without answering (past the loop guard: a received message
 * has a reason only then).
 */
export async function listUnfiled(ctx: Ctx): Promise<UnfiledMail[]> {
  const rows = await queryRows<{
    id: string;
    created_at: Date | string;
    address: string;
    subject: string;
    status: "ignored" | "rejected" | "received";
    reason: string | null;
    ticket_id: string | null;
    has_raw: boolean;
  }>(
    ctx.db,
    sql`select id, created_at, address, subject, status, reason, ticket_id, raw is not null as has_raw
        from email_messages
        where organization_id = ${ctx.orgId} and direction = 'in'
          and (status in ('ignored', 'rejected') or (status = 'received' and reason is not null))
        order by created_at desc, id desc limit ${UNFILED_MAIL_SHOWN}`,
  );
  return rows.map((r) => ({
    id: r.id,
    received_at: new Date(r.created_at).toISOString(),
    address: r.address,
    subject: r.subject,
    status: r.status,
    reason: r.reason,
    ticket_id: r.status === "received" ? r.ticket_id : null,
    has_raw: r.has_raw,
  }));
}

/** The raw text kept of an unfiled message. */
export async function unfiledRaw(ctx: Ctx, id: string): Promise<string> {
  const [row] = await queryRows<{ raw: string }>(
    ctx.db,
    sql`select raw from email_messages
        where organization_id = ${ctx.orgId} and id = ${id} and direction = 'in' and raw is not null`,
  );
  if (!row) throw notFound("Message");
  return row.raw;
}

interface ReceivedRow {
  id: string;
  ticket_id: string | null;
  comment_id: string | null;
  address: string;
  subject: string;
  created_at: Date | string;
  has_html: boolean;
}

const toTicketEmail = (r: ReceivedRow): TicketEmail => ({
  id: r.id,
  comment_id: r.comment_id,
  address: r.address,
  subject: r.subject,
  received_at: new Date(r.created_at).toISOString(),
  has_html: r.has_html,
});

/** The messages received on a ticket, oldest first; another organization's ticket, or none, is not found. */
export async function ticketEmails(ctx: Ctx, ticketId: string): Promise<TicketEmail[]> {
  if (!(await findTicketRow(ctx.db, ctx.orgId, ticketId))) throw notFound("Ticket");
  const rows = await queryRows<ReceivedRow>(
    ctx.db,
    sql`select id, ticket_id, comment_id, address, subject, created_at, html is not null as has_html
        from email_messages
        where organization_id = ${ctx.orgId} and ticket_id = ${ticketId} and direction = 'in' and status = 'received'
        order by created_at, id`,
  );
  return rows.map(toTicketEmail);
}

/** A received message filed on a ticket, with its HTML as it came. */
export async function originalEmail(ctx: Ctx, id: string): Promise<OriginalEmailAnswer["email"]> {
  const [row] = await queryRows<ReceivedRow & { html: string | null }>(
    ctx.db,
    sql`select id, ticket_id, comment_id, address, subject, created_at, html is not null as has_html, html
        from email_messages
        where organization_id = ${ctx.orgId} and id = ${id} and direction = 'in' and status = 'received'`,
  );
  if (!row) throw notFound("Email");
  return { ...toTicketEmail(row), ticket_id: row.ticket_id, html: row.html };
}

/**
 * Whether the organization's customers can reach it by email (the getting-started checklist): a message came in at
 * its inbound address, or it connected a mailbox for import.
 */
export async function emailConnected(db: Queryable, orgId: string): Promise<boolean> {
  const [row] = await queryRows<{ connected: boolean }>(
    db,
    sql`select exists (select 1 from ${emailMessages} where organization_id = ${orgId} and direction = 'in')
        or exists (select 1 from ${emailMailboxes} where organization_id = ${orgId}) as connected`,
  );
  return row?.connected === true;
}
