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

/** Tickets created per day and channel, and tickets solved (their last solve) per day and channel. */
export function ticketVolume(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<{ kind: "created" | "solved"; day: string; source: TicketSource; n: number }>(
    db,
    sql`select 'created' as kind, ${dayOf(sql`t.created_at`, span)} as day, t.source, count(*)::int as n
        from ${tickets} t where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
        group by 2, 3
        union all
        select 'solved', ${dayOf(sql`t.solved_at`, span)}, t.source, count(*)::int
        from ${tickets} t where ${matching(orgId, f)} and t.status in ${DONE} and ${inSpan(sql`t.solved_at`, span)}
        group by 2, 3`,
  );
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
  const [open, changes] = await Promise.all([
    queryRows<{ created_day: string | null; n: number }>(
      db,
      sql`select ${created} as created_day, count(*)::int as n
          from ${tickets} t where ${matching(orgId, f)} and t.status in ${OPEN} and t.created_at < ${span.end}::timestamptz
          group by 1`,
    ),
    queryRows<{ changed_day: string | null; created_day: string | null; delta: number }>(
      db,
      sql`select case when e.created_at >= ${span.end}::timestamptz then null else ${dayOf(sql`e.created_at`, span)} end as changed_day,
                 ${created} as created_day,
                 sum((e.to_value in ${OPEN})::int - (e.from_value in ${OPEN})::int)::int as delta
          from ${ticketEvents} e join ${tickets} t on t.organization_id = e.organization_id and t.id = e.ticket_id
          where e.organization_id = ${orgId} and e.type = 'status' and e.created_at >= ${span.start}::timestamptz
            and t.created_at < ${span.end}::timestamptz and ${matching(orgId, f)}
          group by 1, 2`,
    ),
  ]);
  return { open, changes };
}

/** A ticket's clocks: its first response and last solve (null when not solved now). */
export interface TicketClock {
  id: string;
  assignee_id: string | null;
  created_at: Date | string;
  first_responded_at: Date | string | null;
  solved_at: Date | string | null;
  /** The days (in the time zone) of the first response and of the solve, when they fall in the range. */
  responded_day: string | null;
  solved_day: string | null;
}

/** The tickets first answered or last solved in the range, with their clocks (the speed figures). */
export function ticketClocks(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<TicketClock>(
    db,
    sql`select t.id, t.assignee_id, t.created_at, t.first_responded_at,
               case when t.status in ${DONE} then t.solved_at end as solved_at,
               case when ${inSpan(sql`t.first_responded_at`, span)} then ${dayOf(sql`t.first_responded_at`, span)} end as responded_day,
               case when t.status in ${DONE} and ${inSpan(sql`t.solved_at`, span)} then ${dayOf(sql`t.solved_at`, span)} end as solved_day
        from ${tickets} t
        where ${matching(orgId, f)}
          and ((${inSpan(sql`t.first_responded_at`, span)})
               or (t.status in ${DONE} and ${inSpan(sql`t.solved_at`, span)}))`,
  );
}

/**
 * SLA per priority, over the tickets created in the range with a target: met (done by the due time), missed (done
 * late, or not done and past due at `at`); and the missed ones, oldest due time first.
 */
export async function slaFigures(
  db: Queryable,
  orgId: string,
  f: TicketReportFilter,
  span: ReportSpan,
  at: Date,
  limit: number,
) {
  const now = at.toISOString();
  const solved = sql`case when t.status in ${DONE} then t.solved_at end`;
  const frMissed = sql`(t.first_responded_at > t.first_response_due_at or (t.first_responded_at is null and t.first_response_due_at < ${now}::timestamptz))`;
  const resMissed = sql`(${solved} > t.resolution_due_at or (${solved} is null and t.resolution_due_at < ${now}::timestamptz))`;
  const base = sql`from ${tickets} t where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}`;
  const [counts, breached, [total]] = await Promise.all([
    queryRows<{
      priority: TicketPriority;
      fr_met: number;
      fr_missed: number;
      res_met: number;
      res_missed: number;
    }>(
      db,
      sql`select t.priority,
                 count(*) filter (where t.first_responded_at <= t.first_response_due_at)::int as fr_met,
                 count(*) filter (where ${frMissed})::int as fr_missed,
                 count(*) filter (where ${solved} <= t.resolution_due_at)::int as res_met,
                 count(*) filter (where ${resMissed})::int as res_missed
          ${base} and (t.first_response_due_at is not null or t.resolution_due_at is not null)
          group by t.priority`,
    ),
    queryRows<{
      id: string;
      number: number;
      subject: string;
      priority: TicketPriority;
      kind: "first_response" | "resolution";
      due_at: Date | string;
    }>(
      db,
      sql`select * from (
            select t.id, t.ticket_number as number, t.subject, t.priority, 'first_response' as kind,
                   t.first_response_due_at as due_at ${base} and ${frMissed}
            union all
            select t.id, t.ticket_number, t.subject, t.priority, 'resolution', t.resolution_due_at ${base} and ${resMissed}
          ) b order by due_at, number, kind limit ${limit}`,
    ),
    queryRows<{ n: number }>(
      db,
      sql`select (count(*) filter (where ${frMissed}) + count(*) filter (where ${resMissed}))::int as n ${base}`,
    ),
  ]);
  return { counts, breached, total: total?.n ?? 0 };
}

/** Public replies written in the range per member (author), on the tickets that pass the filters. */
export function repliesByMember(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<{ user_id: string; n: number }>(
    db,
    sql`select c.author_id as user_id, count(*)::int as n
        from ${ticketComments} c join ${tickets} t on t.organization_id = c.organization_id and t.id = c.ticket_id
        where c.organization_id = ${orgId} and c.is_public and c.author_id is not null
          and ${inSpan(sql`c.created_at`, span)} and ${matching(orgId, f)}
        group by c.author_id`,
  );
}

/** Tickets solved in the range (their last solve) per assignee. */
export function solvedByAssignee(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<{ user_id: string; n: number }>(
    db,
    sql`select t.assignee_id as user_id, count(*)::int as n from ${tickets} t
        where ${matching(orgId, f)} and t.assignee_id is not null and t.status in ${DONE} and ${inSpan(sql`t.solved_at`, span)}
        group by t.assignee_id`,
  );
}

/** Tickets created in the range per tag and day. */
export function tagsByDay(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<{ tag: string; day: string; n: number }>(
    db,
    sql`select tag, ${dayOf(sql`t.created_at`, span)} as day, count(*)::int as n
        from ${tickets} t cross join lateral unnest(t.tags) as tag
        where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
        group by 1, 2`,
  );
}

/** Tickets created in the range per weekday (0: Sunday) and hour, in the time zone. */
export function ticketsByHour(db: Queryable, orgId: string, f: TicketReportFilter, span: ReportSpan) {
  return queryRows<{ dow: number; hour: number; n: number }>(
    db,
    sql`select extract(dow from t.created_at at time zone ${span.timezone})::int as dow,
               extract(hour from t.created_at at time zone ${span.timezone})::int as hour, count(*)::int as n
        from ${tickets} t where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
        group by 1, 2`,
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
