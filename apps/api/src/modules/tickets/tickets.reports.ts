import type { TicketPriority, TicketSource, TicketStatus } from "@cove/contract/tickets.ts";
import { type SQL, sql } from "drizzle-orm";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * The tickets' figures the reports read (modules/reports, docs/reports.md), each in the caller's transaction. A span is
 * the report's range as instants (start included, end not) and the organization's time zone, which days and hours
 * are read in; days come back as YYYY-MM-DD. Filters apply to tickets as they are now.
 */

export interface TicketReportFilter {
  channel?: TicketSource | undefined;
  agent?: string | undefined;
  priority?: TicketPriority | undefined;
  tag?: string | undefined;
}

export interface ReportSpan {
  start: string;
  end: string;
  timezone: string;
}

/** Statuses a ticket is waiting in (the backlog). */
const OPEN = sql`('open', 'pending')`;
const DONE = sql`('solved', 'closed')`;

/** The organization's tickets (alias t) that pass the filters. */
function matching(orgId: string, f: TicketReportFilter): SQL {
  return sql`t.organization_id = ${orgId}
    ${f.channel ? sql`and t.source = ${f.channel}` : sql``}
    ${f.agent ? sql`and t.assignee_id = ${f.agent}` : sql``}
    ${f.priority ? sql`and t.priority = ${f.priority}` : sql``}
    ${f.tag ? sql`and t.tags @> array[${f.tag}]::text[]` : sql``}`;
}

/** A subquery of the ids of the organization's tickets that pass the filters, for another module's statement. */
export const filteredTicketIds = (orgId: string, f: TicketReportFilter): SQL =>
  sql`select t.id from ${tickets} t where ${matching(orgId, f)}`;

const inSpan = (column: SQL, span: ReportSpan) =>
  sql`${column} >= ${span.start}::timestamptz and ${column} < ${span.end}::timestamptz`;
const dayOf = (column: SQL, span: ReportSpan) => sql`to_char(${column} at time zone ${span.timezone}, 'YYYY-MM-DD')`;

/** A ticket the range's figures count, as numbers (instants in epoch milliseconds). */
export interface TicketFact {
  id: string;
  number: number;
  source: TicketSource;
  priority: TicketPriority;
  assignee_id: string | null;
  tags: string[];
  created: number;
  /** The team's first public reply. */
  responded: number | null;
  /** The last solve, when solved or closed now. */
  solved: number | null;
  first_response_due: number | null;
  resolution_due: number | null;
  /** Days (in the time zone) when they fall in the range, else null; with the weekday (0: Sunday) and hour created. */
  created_day: string | null;
  responded_day: string | null;
  solved_day: string | null;
  created_dow: number | null;
  created_hour: number | null;
}

/**
 * Every ticket that passes the filters and was created, first answered or last solved in the range, one row each, for
 * the reports to count every ticket figure from (volume, speed, SLA, solves per agent, tags, busiest hours) in one
 * read: three index ranges, each of the organization's own.
 */
export function ticketFacts(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
  const inRange = (column: SQL) => sql`case when ${inSpan(column, span)} then ${dayOf(column, span)} end`;
  const local = sql`(t.created_at at time zone ${span.timezone})`;
  const solved = sql`case when t.status in ${DONE} then t.solved_at end`;
  return queryRows<TicketFact>(
    db,
    sql`select t.id, t.ticket_number as number, t.source, t.priority, t.assignee_id, t.tags,
               ${ms(sql`t.created_at`)} as created, ${ms(sql`t.first_responded_at`)} as responded,
               ${ms(solved)} as solved, ${ms(sql`t.first_response_due_at`)} as first_response_due,
               ${ms(sql`t.resolution_due_at`)} as resolution_due,
               ${inRange(sql`t.created_at`)} as created_day, ${inRange(sql`t.first_responded_at`)} as responded_day,
               ${inRange(solved)} as solved_day,
               case when ${inSpan(sql`t.created_at`, span)} then extract(dow from ${local})::int end as created_dow,
               case when ${inSpan(sql`t.created_at`, span)} then extract(hour from ${local})::int end as created_hour
        from ${tickets} t
        where ${matching(orgId, f)} and t.id in (
          select r.id from ${tickets} r where r.organization_id = ${orgId} and ${inSpan(sql`r.created_at`, span)}
          union
          select r.id from ${tickets} r where r.organization_id = ${orgId} and r.status in ${DONE} and ${inSpan(sql`r.solved_at`, span)}
          union
          select r.id from ${tickets} r
          where r.organization_id = ${orgId} and r.first_responded_at is not null and ${inSpan(sql`r.first_responded_at`, span)})`,
  );
}

/** Tickets' numbers and subjects, by id (the few a report lists). */
export async function ticketSubjects(db: Queryable, orgId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await queryRows<{ id: string; subject: string }>(
    db,
    sql`select t.id, t.subject from ${tickets} t
        where t.organization_id = ${orgId}
          and t.id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) v)`,
  );
  return new Map(rows.map((r) => [r.id, r.subject]));
}

/**
 * What the backlog at the end of each day is worked out from, one pass over the range's status changes instead of
 * a count per day: the tickets open now by the day they were created (null: before the range), and the status changes
 * since the range began by their day (null: after the range) and their ticket's creation day, each as +1 (into open
 * or pending), -1 (out of them) summed. The backlog at a day's end is then the tickets open now created by then,
 * less the changes after it to tickets created by then.
 */
export async function backlogParts(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  const created = sql`case when t.created_at < ${span.start}::timestamptz then null else ${dayOf(sql`t.created_at`, span)} end`;
  // One statement after the other: a transaction's statements run one at a time anyway.
  const open = await queryRows<{ created_day: string | null; n: number }>(
    db,
    sql`select ${created} as created_day, count(*)::int as n
          from ${tickets} t where ${matching(orgId, f)} and t.status in ${OPEN} and t.created_at < ${span.end}::timestamptz
          group by 1`,
  );
  const changes = await queryRows<{ changed_day: string | null; created_day: string | null; delta: number }>(
    db,
    sql`select case when e.created_at >= ${span.end}::timestamptz then null else ${dayOf(sql`e.created_at`, span)} end as changed_day,
                 ${created} as created_day,
                 sum((e.to_value in ${OPEN})::int - (e.from_value in ${OPEN})::int)::int as delta
          from ${ticketEvents} e join ${tickets} t on t.organization_id = e.organization_id and t.id = e.ticket_id
          where e.organization_id = ${orgId} and e.type = 'status' and e.created_at >= ${span.start}::timestamptz
            and t.created_at < ${span.end}::timestamptz and ${matching(orgId, f)}
          group by 1, 2`,
  );
  return { open, changes };
}

/** Public replies written in the range per member (author), on the tickets that pass the filters. */
export function repliesByMember(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  const filtered = Boolean(f.channel || f.agent || f.priority || f.tag);
  return queryRows<{ user_id: string; n: number }>(
    db,
    sql`select c.author_id as user_id, count(*)::int as n
        from ${ticketComments} c
        where c.organization_id = ${orgId} and c.is_public and c.author_id is not null
          and ${inSpan(sql`c.created_at`, span)}
          ${filtered ? sql`and c.ticket_id in (${filteredTicketIds(orgId, f)})` : sql``}
        group by c.author_id`,
  );
}

/** One ticket of the per-ticket export. */
export interface TicketExportRow {
  id: string;
  ticket_number: number;
  subject: string;
  source: TicketSource;
  status: TicketStatus;
  priority: TicketPriority;
  requester_email: string;
  assignee_email: string | null;
  tags: string[];
  created_at: Date | string;
  first_responded_at: Date | string | null;
  solved_at: Date | string | null;
  first_response_due_at: Date | string | null;
  resolution_due_at: Date | string | null;
  reopened_count: number;
  /** created_at as PostgreSQL prints it (microseconds kept), for the next page's cursor. */
  created_key: string;
}

/** Where a page of the export starts: after this ticket (creation time, number). */
export interface ExportCursor {
  createdAt: string;
  number: number;
}

/**
 * A page of the tickets created in the range, by creation time and number, after the cursor: keyset pages off the
 * (organization, created_at) index, so a long export never holds more than a page. reopened_count: the changes of
 * status from solved or closed back to open or pending.
 */
export function ticketExportPage(
  db: Queryable,
  orgId: string,
  f: TicketReportFilter,
  span: ReportSpan,
  after: ExportCursor | null,
  limit: number,
) {
  return queryRows<TicketExportRow>(
    db,
    sql`select t.id, t.ticket_number, t.subject, t.source, t.status, t.priority, t.requester_email,
               u.email as assignee_email, t.tags, t.created_at, t.created_at::text as created_key, t.first_responded_at,
               case when t.status in ${DONE} then t.solved_at end as solved_at,
               t.first_response_due_at, t.resolution_due_at,
               (select count(*)::int from ${ticketEvents} e
                where e.organization_id = t.organization_id and e.ticket_id = t.id and e.type = 'status'
                  and e.from_value in ${DONE} and e.to_value in ${OPEN}) as reopened_count
        from ${tickets} t
        left join ${users} u on u.organization_id = t.organization_id and u.id = t.assignee_id
        where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
          ${after ? sql`and (t.created_at, t.ticket_number) > (${after.createdAt}::timestamptz, ${after.number})` : sql``}
        order by t.created_at, t.ticket_number
        limit ${limit}`,
  );
}
