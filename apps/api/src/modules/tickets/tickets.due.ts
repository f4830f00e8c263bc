import type { TicketPriority } from "@cove/contract/tickets.ts";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * A ticket's clocks as other modules ask for them: the SLA (modules/automation/sla.ts works its due times out and
 * stores them here, on the ticket's own columns) and time-based rules (how long a ticket has waited in a state). Every
 * function runs in the caller's transaction; the fragments are subqueries for the caller's statement, so a batch stays
 * one statement. Raw statements get timestamps as PostgreSQL prints them: hence Date | string.
 */

/** A ticket's due times and what they are worked out from; undefined when the organization has no such ticket. */
export async function findDueTimes(db: Queryable, orgId: string, ticketId: string) {
  const [row] = await queryRows<{
    created_at: Date | string;
    priority: TicketPriority;
    first_response_due_at: Date | string | null;
    resolution_due_at: Date | string | null;
  }>(
    db,
    sql`select created_at, priority, first_response_due_at, resolution_due_at from ${tickets}
        where organization_id = ${orgId} and id = ${ticketId}`,
  );
  return row;
}

/** Due times to store, by ticket (null: no target). */
export interface DueTimes {
  id: string;
  firstResponse: Date | null;
  resolution: Date | null;
}

/** Stores tickets' new due times, in one statement however many. */
export async function writeDueTimes(db: Queryable, orgId: string, due: DueTimes[]): Promise<void> {
  if (due.length === 0) return;
  const rows = due.map((d) => ({
    id: d.id,
    f: d.firstResponse?.toISOString() ?? null,
    r: d.resolution?.toISOString() ?? null,
  }));
  await db.execute(
    sql`update ${tickets} t set first_response_due_at = v.f, resolution_due_at = v.r
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, f timestamptz, r timestamptz)
        where t.organization_id = ${orgId} and t.id = v.id`,
  );
}

/** A page of the organization's open and pending tickets by number (after the last one seen), with their clocks. */
export async function openTicketsAfter(db: Queryable, orgId: string, after: number, limit: number) {
  return queryRows<{
    id: string;
    ticket_number: number;
    priority: TicketPriority;
    created_at: Date | string;
    first_response_due_at: Date | string | null;
    resolution_due_at: Date | string | null;
    first_responded_at: Date | string | null;
  }>(
    db,
    sql`select id, ticket_number, priority, created_at, first_response_due_at, resolution_due_at, first_responded_at
        from ${tickets}
        where organization_id = ${orgId} and status in ('open', 'pending') and ticket_number > ${after}
        order by ticket_number limit ${limit}`,
  );
}

/** The team's first public reply (a member's) ends the wait for a first response: this comment, if it is one. */
export async function noteFirstResponse(db: Queryable, orgId: string, ticketId: string, commentId: string) {
  await db.execute(
    sql`update ${tickets} t set first_responded_at = c.created_at
        from ${ticketComments} c
        where t.organization_id = ${orgId} and t.id = ${ticketId} and t.first_responded_at is null
          and c.organization_id = ${orgId} and c.id = ${commentId} and c.author_id is not null`,
  );
}

/**
 * Tickets written straight into the database (the demo's, or from before due times were stored) get their team's
 * first public reply read from their comments.
 */
export async function fillFirstResponses(db: Queryable, orgId: string, ticketIds: string[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await db.execute(
    sql`update ${tickets} t set first_responded_at = x.at
        from (select c.ticket_id, min(c.created_at) as at from ${ticketComments} c
              where c.organization_id = ${orgId}
                and c.ticket_id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(ticketIds)}::jsonb) v)
                and c.is_public and c.author_id is not null
              group by c.ticket_id) x
        where t.organization_id = ${orgId} and t.id = x.ticket_id`,
  );
}

/**
 * A subquery (id, ticket_number, subject, assignee_id, kind, state) of the tickets whose next due time is close (less
 * than share of its time left at `at`) or past ("breached"); kind: which due time it is.
 */
export const ticketsNearDue = (orgId: string, at: string, share: number) =>
  sql`select t.id, t.ticket_number, t.subject, t.assignee_id,
             case when t.first_responded_at is null and t.first_response_due_at is not null
                  then 'first_response' else 'resolution' end as kind,
             case when t.sla_due_at < ${at}::timestamptz then 'breached' else 'close' end as state
      from ${tickets} t
      where t.organization_id = ${orgId} and t.sla_due_at is not null
        and t.sla_due_at - (t.sla_due_at - t.created_at) * ${share}::float8 < ${at}::timestamptz`;

/**
 * A subquery (id, created_at) of the open and pending tickets of a priority created by `before`, and (unanswered)
 * still without a public reply from the team: the candidates for an SLA breach.
 */
export const openTicketsCreatedBy = (orgId: string, priority: TicketPriority, before: Date, unanswered: boolean) =>
  sql`select t.id, t.created_at from ${tickets} t
      where t.organization_id = ${orgId} and t.status in ('open', 'pending') and t.priority = ${priority}
        and t.created_at <= ${before.toISOString()}::timestamptz
        ${unanswered ? sql`and not exists (select 1 from ${ticketComments} c where c.organization_id = t.organization_id and c.ticket_id = t.id and c.is_public and c.author_id is not null)` : sql``}`;

/** How a ticket waits: in pending, in open, or unassigned (while open or pending). */
export type TicketWait = "pending" | "open" | "unassigned";

/** Since when (the last change of that kind, else its creation) and which tickets wait so. */
const WAITS: Record<TicketWait, { change: SQL; waiting: SQL }> = {
  pending: { change: sql`'status'`, waiting: sql`t.status = 'pending'` },
  open: { change: sql`'status'`, waiting: sql`t.status = 'open'` },
  unassigned: { change: sql`'assignee'`, waiting: sql`t.assignee_id is null and t.status in ('open', 'pending')` },
};

/** A subquery (id, since) of the organization's tickets waiting so now, and since when. */
export function ticketsWaiting(orgId: string, wait: TicketWait): SQL {
  const { change, waiting } = WAITS[wait];
  return sql`select t.id, coalesce((select max(e.created_at) from ${ticketEvents} e
                where e.organization_id = t.organization_id and e.ticket_id = t.id and e.type = ${change}), t.created_at) as since
             from ${tickets} t
             where t.organization_id = ${orgId} and ${waiting}`;
}

/** A scalar subquery: a ticket's number (null when it is gone), for a list of what happened to tickets. */
export const ticketNumberOf = (orgId: string, ticketId: SQLWrapper) =>
  sql`(select t.ticket_number from ${tickets} t where t.organization_id = ${orgId} and t.id = ${ticketId})`;

/**
 * Works out again the stored business minutes (first response, solve: the reports' figures, kept by a trigger as the
 * instants are written; migration *_ticket_business_minutes_trigger.sql) of the organization's answered or solved
 * tickets numbered after `after`, `limit` of them, under its business hours and time zone as they are now. Only the
 * rows whose minutes change are written.
 */
export async function refreshBusinessMinutes(db: Queryable, orgId: string, after: number, limit: number) {
  const minutes = (end: SQL) => sql`organization_business_minutes(t.organization_id, t.created_at, ${end})`;
  const [row] = await queryRows<{ count: number; last: number | null; changed: number }>(
    db,
    sql`with batch as (
          select id, ticket_number from ${tickets}
          where organization_id = ${orgId} and ticket_number > ${after}
            and (first_responded_at is not null or solved_at is not null)
          order by ticket_number limit ${limit}),
        worked as (
          select t.id, ${minutes(sql`t.first_responded_at`)} as fr, ${minutes(sql`t.solved_at`)} as res
          from ${tickets} t join batch b on b.id = t.id
          where t.organization_id = ${orgId}),
        written as (
          update ${tickets} t set first_response_business_minutes = w.fr, resolution_business_minutes = w.res
          from worked w
          where t.organization_id = ${orgId} and t.id = w.id
            and (t.first_response_business_minutes, t.resolution_business_minutes) is distinct from (w.fr, w.res)
          returning 1)
        select (select count(*) from batch)::int as count, (select max(ticket_number) from batch) as last,
               (select count(*) from written)::int as changed`,
  );
  return { count: row?.count ?? 0, last: row?.last ?? after, changed: row?.changed ?? 0 };
}
