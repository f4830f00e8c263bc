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

/** A subquery of the ids of the organization's tickets that pass the filters, for another module's statement. */
export const filteredTicketIds = (orgId: string, f: TicketReportFilter): SQL =>
  sql`select t.id from ${tickets} t where ${matching(orgId, f)}`;

const inSpan = (column: SQL, span: ReportSpan) =>
  sql`${column} >= ${span.start}::timestamptz and ${column} < ${span.end}::timestamptz`;

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
  /**
   * Which period of the report they fall in: width_bucket against the periods' bounds (1 is the first period; 0,
   * null, or past the last: outside the range). Cheaper per row than working out a day in the time zone.
   */
  created_bucket: number | null;
  responded_bucket: number | null;
  solved_bucket: number | null;
  /** The weekday (0: Sunday) and hour of the creation in the time zone, when created in the range. */
  created_dow: number | null;
  created_hour: number | null;
}

/**
 * Every ticket that passes the filters and was created, first answered or last solved in the range, one row each, for
 * the reports to count every ticket figure from (volume, speed, SLA, solves per agent, tags, busiest hours). Two
 * reads: the tickets created in the range, off tickets_org_created_report_idx alone (it includes every column used
 * here, so the wide rows are not read); then the fewer created before it and answered or solved in it.
 */
export async function ticketFacts(
  db: Queryable,
  orgId: string,
  f: TicketReportFilter,
  span: ReportSpan,
  /** The instants the report's periods start at, and the range's end. */
  bounds: string[],
) {
  const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
  const bucket = (column: SQL) => bucketOf(column, bounds);
  const local = sql`(t.created_at at time zone ${span.timezone})`;
  const solved = sql`case when t.status in ${DONE} then t.solved_at end`;
  const columns = (createdInRange: boolean) =>
    sql`t.id, t.ticket_number as number, t.source, t.priority, t.assignee_id, t.tags,
        ${ms(sql`t.created_at`)} as created, ${ms(sql`t.first_responded_at`)} as responded,
        ${ms(solved)} as solved, ${ms(sql`t.first_response_due_at`)} as first_response_due,
        ${ms(sql`t.resolution_due_at`)} as resolution_due,
        ${createdInRange ? bucket(sql`t.created_at`) : sql`null::int`} as created_bucket,
        ${bucket(sql`t.first_responded_at`)} as responded_bucket, ${bucket(solved)} as solved_bucket,
        ${createdInRange ? sql`extract(dow from ${local})::int` : sql`null::int`} as created_dow,
        ${createdInRange ? sql`extract(hour from ${local})::int` : sql`null::int`} as created_hour`;
  const created = await queryRows<TicketFact>(
    db,
    sql`select ${columns(true)} from ${tickets} t where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}`,
  );
  const earlier = await queryRows<TicketFact>(
    db,
    sql`select ${columns(false)} from ${tickets} t
        where ${matching(orgId, f)} and t.created_at < ${span.start}::timestamptz
          and ((t.status in ${DONE} and ${inSpan(sql`t.solved_at`, span)})
               or (t.first_responded_at is not null and ${inSpan(sql`t.first_responded_at`, span)}))`,
  );
  return earlier.length === 0 ? created : [...created, ...earlier];
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
  const edges = sql`array[${sql.join(
    bounds.map((b) => sql`${b}::timestamptz`),
    sql`, `,
  )}]`;
  return sql`width_bucket(${column}, ${edges})`;
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
  const changes = await queryRows<{ changed_bucket: number; created_bucket: number; delta: number }>(
    db,
    sql`select ${bucketOf(sql`e.created_at`, bounds)} as changed_bucket, ${created} as created_bucket,
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
