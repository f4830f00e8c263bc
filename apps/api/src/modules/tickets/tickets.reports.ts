import type { TicketPriority, TicketSource, TicketStatus } from "@cove/contract/tickets.ts";
import { type SQL, sql } from "drizzle-orm";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * The tickets' figures the reports read (modules/reports, docs/reports.md), each in the caller's transaction. A span is
 * the report's range as instants (start included, end not) and the organization's time zone, which days and hours
 * are read in. Filters apply to tickets as they are now.
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

/**
 * A subquery of the ids of the organization's tickets that pass the filters, for another module's statement (the
 * replies and surveys of a filtered report). It reads every ticket of the organization, off the narrow
 * tickets_org_report_filter_idx (migration *_report_filter_index.sql: the id and the filtered columns).
 */
export const filteredTicketIds = (orgId: string, f: TicketReportFilter): SQL =>
  sql`select t.id from ${tickets} t where ${matching(orgId, f)}`;

const inSpan = (column: SQL, span: ReportSpan) =>
  sql`${column} >= ${span.start}::timestamptz and ${column} < ${span.end}::timestamptz`;

/**
 * One group of a report's ticket figures, counted in the database (kind says which; docs/reports.md defines each):
 * - created, solved: tickets created (solved last) in period `a`, of channel `key`, `n` of them;
 * - first_response, resolution: the first responses (last solves) made in period `a` (null: the whole range), of the
 *   tickets of assignee `key` when kind ends in _agent: `n` of them and the median and 90th percentile of their
 *   calendar minutes (m50, m90) and business minutes (b50, b90);
 * - sla: the tickets created in the range of priority `key` whose first-response due time was met (m50) or missed
 *   (m90), and their resolution due time met (b50) or missed (b90);
 * - breached: the first REPORT_BREACHED_MAX due times missed (by due time) in `list` (`n` 0: how many there are is
 *   the sla groups' missed counts summed, the same tickets);
 * - tag: tickets created in period `a` with tag `key`; hour: tickets created on weekday `a` (0: Sunday) at hour `b`
 *   of the time zone;
 * - next_due: the earliest due time of the range's tickets that is not done and not yet past at `at` (m50: epoch
 *   milliseconds, rounded down; null: none), when the sla and breached figures next change without a write.
 * Periods are width_bucket against the periods' bounds (1: the first).
 */
export interface TicketFigure {
  kind:
    | "created"
    | "solved"
    | "first_response"
    | "resolution"
    | "first_response_agent"
    | "solved_agent"
    | "sla"
    | "breached"
    | "tag"
    | "hour"
    | "next_due";
  a: number | null;
  b: number | null;
  key: string | null;
  n: number;
  m50: number | null;
  m90: number | null;
  b50: number | null;
  b90: number | null;
  list: BreachedDue[] | null;
}

/** A due time missed: the ticket, which due time, and when it was (epoch milliseconds). */
export interface BreachedDue {
  id: string;
  number: number;
  priority: TicketPriority;
  kind: "first_response" | "resolution";
  due: number;
}

/**
 * Every ticket figure of a report (volume, speed, SLA, solves per agent, tags, busiest hours) in one statement, so
 * the database sends groups, not tickets: the tickets that pass the filters and were created in the range (off the
 * covering index tickets_org_created_minutes_idx alone), with the fewer created before it and first answered or last
 * solved in it, are read once into a materialized set and grouped from there. Business minutes are the ones stored on
 * each ticket (migration *_ticket_business_minutes_trigger.sql). `at`: the instant a due time not done yet is missed
 * by.
 */
export async function ticketFigures(
  db: Queryable,
  orgId: string,
  f: TicketReportFilter,
  span: ReportSpan,
  /** The instants the report's periods start at, and the range's end. */
  bounds: string[],
  at: Date,
  breachedMax: number,
) {
  const last = bounds.length - 1;
  const bucket = (column: SQL) => bucketOf(column, bounds);
  const local = sql`(t.created_at at time zone ${span.timezone})`;
  const solved = sql`case when t.status in ${DONE} then t.solved_at end`;
  // date_part answers in float8 (extract in numeric, several times slower per row); for an interval of a
  // timestamptz difference both are the nearest float8 to the exact seconds, so the values are the same.
  const minutes = (end: SQL) => sql`date_part('epoch', ${end} - t.created_at) / 60`;
  const columns = (createdInRange: boolean) =>
    sql`t.id, t.ticket_number, t.source, t.priority, t.assignee_id, t.tags,
        ${createdInRange ? bucket(sql`t.created_at`) : sql`null::int`} as created_bucket,
        ${bucket(sql`t.first_responded_at`)} as responded_bucket, ${bucket(solved)} as solved_bucket,
        ${minutes(sql`t.first_responded_at`)} as fr, t.first_response_business_minutes as fr_business,
        ${minutes(solved)} as res, case when t.status in ${DONE} then t.resolution_business_minutes end as res_business,
        ${createdInRange ? sql`date_part('dow', ${local})::int` : sql`null::int`} as dow,
        ${createdInRange ? sql`date_part('hour', ${local})::int` : sql`null::int`} as hour,
        ${dueOutcome(sql`t.first_response_due_at`, sql`t.first_responded_at`, at)} as fr_due,
        ${dueOutcome(sql`t.resolution_due_at`, solved, at)} as res_due,
        t.first_response_due_at, t.resolution_due_at`;
  const inPeriods = (column: SQL) => sql`${column} between 1 and ${last}`;
  // Both quantiles of a value from one sort of it.
  const times = (value: SQL, business: SQL) =>
    sql`(percentile_cont(array[0.5, 0.9]) within group (order by ${value}))[1],
        (percentile_cont(array[0.5, 0.9]) within group (order by ${value}))[2],
        (percentile_cont(array[0.5, 0.9]) within group (order by ${business}))[1],
        (percentile_cont(array[0.5, 0.9]) within group (order by ${business}))[2]`;
  const count = (kind: string, a: SQL, b: SQL, key: SQL, where: SQL, from = sql`x`) =>
    sql`select ${kind}::text as kind, ${a} as a, ${b} as b, ${key} as key, count(*)::int as n, null::float8 as m50,
               null::float8 as m90, null::float8 as b50, null::float8 as b90, null::jsonb as list
        from ${from} where ${where} group by 2, 3, 4`;
  // Each tag of the tickets created in the range's periods, unnested in the select list (one pass) rather than by a
  // function scan per ticket.
  const tagged = sql`(select created_bucket, unnest(tags) as tag from x where ${inPeriods(sql`created_bucket`)}) t`;
  // The range's tickets (a few tens of thousands of narrow rows) and the groups' sorts fit in memory instead of
  // temporary files; for this transaction only.
  await db.execute(sql`set local work_mem = '64MB'`);
  return queryRows<TicketFigure>(
    db,
    sql`with x as materialized (
          select ${columns(true)} from ${tickets} t
          where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
          union all
          select ${columns(false)} from ${tickets} t
          where ${matching(orgId, f)} and t.created_at < ${span.start}::timestamptz
            and t.id in (${answeredOrSolvedBefore(orgId, span)})),
        missed as (
          select id, ticket_number, priority, 'first_response' as kind, first_response_due_at as due
          from x where created_bucket is not null and fr_due = 'missed'
          union all
          select id, ticket_number, priority, 'resolution', resolution_due_at
          from x where created_bucket is not null and res_due = 'missed')
        ${counts(last)}
        union all
        select 'first_response', responded_bucket, null::int, null::text, count(*)::int, ${times(sql`fr`, sql`fr_business`)},
               null::jsonb
        from x where ${inPeriods(sql`responded_bucket`)} group by grouping sets ((responded_bucket), ())
        union all
        select 'first_response_agent', null::int, null::int, assignee_id::text, count(*)::int,
               ${times(sql`fr`, sql`fr_business`)}, null::jsonb
        from x where ${inPeriods(sql`responded_bucket`)} and assignee_id is not null group by assignee_id
        union all
        select 'resolution', solved_bucket, null::int, null::text, count(*)::int, ${times(sql`res`, sql`res_business`)},
               null::jsonb
        from x where ${inPeriods(sql`solved_bucket`)} group by grouping sets ((solved_bucket), ())
        union all
        select 'breached', null::int, null::int, null::text, 0,
               null::float8, null::float8, null::float8, null::float8,
               (select coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'number', m.ticket_number,
                         'priority', m.priority, 'kind', m.kind, 'due', (extract(epoch from m.due) * 1000)::float8)
                       order by m.due, m.ticket_number, m.kind), '[]'::jsonb)
                from (select * from missed order by due, ticket_number, kind limit ${breachedMax}) m)
        union all
        ${count("tag", sql`created_bucket`, sql`null::int`, sql`tag`, sql`true`, tagged)}
        union all
        select 'next_due', null::int, null::int, null::text, 0,
               floor(extract(epoch from least(min(first_response_due_at) filter (where fr_due is null),
                                              min(resolution_due_at) filter (where res_due is null))) * 1000)::float8,
               null::float8, null::float8, null::float8, null::jsonb
        from x where created_bucket is not null
        `,
  );
}

/**
 * The ids of the organization's tickets created before the range and first answered or last solved in it, off two
 * narrow indexes of (answer or solve instant) INCLUDE (id, created_at) (migration *_report_answered_solved_indexes.sql)
 * instead of every older ticket's entry of the covering index.
 */
function answeredOrSolvedBefore(orgId: string, span: ReportSpan): SQL {
  return sql`select s.id from ${tickets} s
             where s.organization_id = ${orgId} and s.status in ${DONE} and ${inSpan(sql`s.solved_at`, span)}
               and s.created_at < ${span.start}::timestamptz
             union all
             select r.id from ${tickets} r
             where r.organization_id = ${orgId} and r.first_responded_at is not null
               and ${inSpan(sql`r.first_responded_at`, span)} and r.created_at < ${span.start}::timestamptz`;
}

/**
 * The counted groups of ticketFigures (created and solved per period and channel, solves per assignee, SLA met and
 * missed per priority, the weekday x hour heatmap) from one hashed pass over the range's tickets (x) with grouping
 * sets, instead of a scan and a sort of x for each; the groups outside the range's periods or with nothing counted
 * are left out. `last`: the last period's bucket.
 */
function counts(last: number): SQL {
  const g = (column: string) => sql.raw(`grouping(${column}) = 0`);
  const inPeriods = (column: string) => sql`${sql.raw(column)} between 1 and ${last}`;
  const created = sql`created_bucket is not null`;
  return sql`select kind, a, b, key, n, m50, m90, b50, b90, null::jsonb as list from (
      select case when ${g("created_bucket")} then 'created' when ${g("solved_bucket")} then 'solved'
                  when ${g("assignee_id")} then 'solved_agent' when ${g("priority")} then 'sla' else 'hour' end as kind,
             case when ${g("created_bucket")} then created_bucket when ${g("solved_bucket")} then solved_bucket
                  when ${g("dow")} then dow end as a,
             hour as b,
             coalesce(source::text, assignee_id::text, priority::text) as key,
             (case when ${g("assignee_id")} then count(*) filter (where ${inPeriods("solved_bucket")})
                   when ${g("priority")} then count(*) filter (where ${created})
                   else count(*) end)::int as n,
             case when ${g("priority")} then count(*) filter (where ${created} and fr_due = 'met') end::float8 as m50,
             case when ${g("priority")} then count(*) filter (where ${created} and fr_due = 'missed') end::float8 as m90,
             case when ${g("priority")} then count(*) filter (where ${created} and res_due = 'met') end::float8 as b50,
             case when ${g("priority")} then count(*) filter (where ${created} and res_due = 'missed') end::float8 as b90
      from x
      group by grouping sets ((created_bucket, source), (solved_bucket, source), (assignee_id), (priority), (dow, hour))) g
    where case kind when 'created' then ${inPeriods("a")} when 'solved' then ${inPeriods("a")}
                    when 'solved_agent' then key is not null and n > 0
                    when 'sla' then n > 0 else a is not null end`;
}

/** Whether a due time was met (done by it), missed (done late, or not done and past due at `at`), or neither. */
function dueOutcome(due: SQL, done: SQL, at: Date): SQL {
  return sql`case when ${due} is null then null
                  when ${done} is not null then case when ${done} <= ${due} then 'met' else 'missed' end
                  when ${due} < ${at.toISOString()}::timestamptz then 'missed' end`;
}

/** Tickets' numbers and subjects, by id (the few a report lists). */
export async function ticketSubjects(db: Queryable, orgId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await queryRows<{ id: string; subject: string }>(
    db,
    sql`select t.id, t.subject from ${tickets} t
        where t.organization_id = ${orgId}
          and t.id = any(${`{${ids.join(",")}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r.subject]));
}

/** width_bucket of a column against the report's period bounds (see TicketFact). */
function bucketOf(column: SQL, bounds: string[]): SQL {
  // One array parameter (ISO instants have no commas), not one parameter per bound.
  return sql`width_bucket(${column}, ${`{${bounds.join(",")}}`}::timestamptz[])`;
}

/**
 * What the backlog at the end of each period is worked out from, one pass over the range's status changes instead of
 * a count per period: the tickets open now by the period they were created in, and the status changes since the
 * range began by their period and their ticket's creation period (both as width_bucket against the periods' bounds:
 * 0 before the range, past the last period after it), each as +1 (into open or pending) or -1 (out of them), summed.
 * The backlog at a period's end is then the tickets open now created by then, less the changes after it to tickets
 * created by then.
 */
export async function backlogParts(
  db: Queryable,
  orgId: string,
  f: TicketReportFilter,
  span: ReportSpan,
  bounds: string[],
) {
  const created = bucketOf(sql`t.created_at`, bounds);
  // One statement after the other: a transaction's statements run one at a time anyway.
  const open = await queryRows<{ created_bucket: number; n: number }>(
    db,
    sql`select ${created} as created_bucket, count(*)::int as n
          from ${tickets} t where ${matching(orgId, f)} and t.status in ${OPEN} and t.created_at < ${span.end}::timestamptz
          group by 1`,
  );
  // The changes' tickets created in the range come from one read of the range's tickets (off the covering index;
  // no bucket when they do not pass the filters) instead of every ticket of the organization; the fewer created
  // before it are looked up one by one (creation bucket 0), and the ones created after the range's end (no bucket)
  // are left out. A change between open and pending moves nothing and is not read.
  const changes = await queryRows<{ changed_bucket: number; created_bucket: number; delta: number }>(
    db,
    sql`select changed_bucket, created_bucket, sum(delta)::int as delta from (
          select ${bucketOf(sql`e.created_at`, bounds)} as changed_bucket,
                 case when r.id is not null then r.created_bucket
                      else (select 0 from ${tickets} t
                            where ${matching(orgId, f)} and t.id = e.ticket_id and t.created_at < ${span.start}::timestamptz)
                 end as created_bucket,
                 (e.to_value in ${OPEN})::int - (e.from_value in ${OPEN})::int as delta
          from ${ticketEvents} e
          left join (select t.id, case when ${matching(orgId, f)} then ${created} end as created_bucket from ${tickets} t
                     where t.organization_id = ${orgId} and ${inSpan(sql`t.created_at`, span)}) r on r.id = e.ticket_id
          where e.organization_id = ${orgId} and e.type = 'status' and e.created_at >= ${span.start}::timestamptz
            and (e.to_value in ${OPEN}) <> (e.from_value in ${OPEN})) c
        where created_bucket is not null
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
  /** Stored on the ticket (migration *_ticket_business_minutes_trigger.sql); the resolution's when solved now. */
  first_response_business_minutes: number | null;
  resolution_business_minutes: number | null;
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
               t.first_response_due_at, t.resolution_due_at, t.first_response_business_minutes,
               case when t.status in ${DONE} then t.resolution_business_minutes end as resolution_business_minutes,
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
