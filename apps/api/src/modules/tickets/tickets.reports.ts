import {
  TICKET_PRIORITIES,
  TICKET_SOURCES,
  type TicketPriority,
  type TicketSource,
  type TicketStatus,
} from "@cove/contract/tickets.ts";
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
 * Every ticket figure of a report (volume, speed, SLA, solves per agent, tags, busiest hours). The tickets that pass
 * the filters and were created in the range (off the covering index tickets_org_created_minutes_idx alone), with the
 * fewer created before it and first answered or last solved in it, are read once as one row of columns (each column
 * the tickets' values joined by commas; channel, priority and assignee as small numbers; tags as one JSON array) and
 * counted here in one pass: grouping them in the database took a hash or a sort per kind of figure, which cost more
 * than reading the columns (docs/benchmarks.md, "Reports"). The answers are the ones the database gave: instants
 * travel as exact microseconds, calendar minutes are worked out as date_part('epoch', end - created_at) / 60 does,
 * percentiles as percentile_cont does, and business minutes are the ones stored on each ticket (migration
 * *_ticket_business_minutes_trigger.sql). `at`: the instant a due time not done yet is missed by.
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
): Promise<TicketFigure[]> {
  const solved = sql`case when t.status in ${DONE} then t.solved_at end`;
  // Exact microseconds since the epoch (date_part's float8 seconds times a million, rounded: exact below 2^53); the
  // creation from the range's start, the other instants from the creation (fewer digits to write and read).
  const micros = (column: SQL) => sql`(date_part('epoch', ${column}) * 1000000)::int8`;
  const start = Date.parse(span.start) * 1000;
  const sinceCreated = (column: SQL) => sql`${micros(column)} - ${micros(sql`t.created_at`)}`;
  const local = sql`(t.created_at at time zone ${span.timezone})`;
  const sources = `{${TICKET_SOURCES.join(",")}}`;
  const priorities = `{${TICKET_PRIORITIES.join(",")}}`;
  // The organization's members once (an init plan); each ticket's assignee as its place among them.
  const members = sql`(select coalesce(array_agg(u.id order by u.id), '{}') from ${users} u where u.organization_id = ${orgId})`;
  const columns = (createdInRange: boolean) =>
    sql`${micros(sql`t.created_at`)} - ${start}::int8 as c, ${sinceCreated(sql`t.first_responded_at`)} as r,
        ${sinceCreated(solved)} as s, ${sinceCreated(sql`t.first_response_due_at`)} as fd,
        ${sinceCreated(sql`t.resolution_due_at`)} as rd,
        t.first_response_business_minutes as fb,
        case when t.status in ${DONE} then t.resolution_business_minutes end as rb,
        array_position(${sources}::text[], t.source::text) as src,
        array_position(${priorities}::text[], t.priority::text) as pri,
        array_position(${members}, t.assignee_id) as asg, t.ticket_number as num, t.tags,
        ${createdInRange ? sql`(date_part('dow', ${local}) * 24 + date_part('hour', ${local}))::int` : sql`null::int`} as dh`;
  const joined = (column: string) => sql.raw(`string_agg(coalesce(x.${column}::text, ''), ',') as ${column}`);
  const [row] = await queryRows<Record<(typeof COLUMNS)[number] | "tags" | "members", string | null> & { n: number }>(
    db,
    sql`select count(*)::int as n, ${sql.join(
      COLUMNS.map((c) => joined(c)),
      sql`, `,
    )}, json_agg(x.tags)::text as tags, array_to_string(${members}, ',') as members
        from (select ${columns(true)} from ${tickets} t
              where ${matching(orgId, f)} and ${inSpan(sql`t.created_at`, span)}
              union all
              select ${columns(false)} from ${tickets} t
              where ${matching(orgId, f)} and t.created_at < ${span.start}::timestamptz
                and t.id in (${answeredOrSolvedBefore(orgId, span)})) x`,
  );
  const n = row?.n ?? 0;
  const column = (name: (typeof COLUMNS)[number]) => scanColumn(row?.[name] ?? "", n);
  const figures = countFigures(
    {
      n,
      created: column("c"),
      responded: column("r"),
      solved: column("s"),
      frDue: column("fd"),
      resDue: column("rd"),
      frBusiness: column("fb"),
      resBusiness: column("rb"),
      source: column("src"),
      priority: column("pri"),
      assignee: column("asg"),
      number: column("num"),
      dowHour: column("dh"),
      tags: n === 0 ? [] : (JSON.parse(row?.tags ?? "[]") as string[][]),
      members: row?.members ? row.members.split(",") : [],
    },
    start,
    bounds.map((b) => Date.parse(b) * 1000),
    at.getTime() * 1000,
    breachedMax,
  );
  const breached = figures.find((r) => r.kind === "breached")?.list ?? [];
  if (breached.length > 0) {
    // The few breached tickets' ids, by number (the columns carry numbers, not 36-character ids).
    const ids = await queryRows<{ id: string; ticket_number: number }>(
      db,
      sql`select t.id, t.ticket_number from ${tickets} t
          where t.organization_id = ${orgId}
            and t.ticket_number = any(${`{${breached.map((b) => b.number).join(",")}}`}::int[])`,
    );
    const idOf = new Map(ids.map((r) => [r.ticket_number, r.id]));
    for (const b of breached) b.id = idOf.get(b.number) ?? "";
  }
  return figures;
}

/** The columns ticketFigures reads, each joined into one text. */
const COLUMNS = ["c", "r", "s", "fd", "rd", "fb", "rb", "src", "pri", "asg", "num", "dh"] as const;

/**
 * The n numbers of a column joined by commas, as the database wrote them (integers, or float8 in its shortest exact
 * form; "" for null, read as NaN), without a string per value: the digits are read as an integer, exact below 2^53,
 * and a fraction is that integer divided by its power of ten (one correctly rounded division of two exact numbers:
 * the nearest float8, as Number would read it); a longer value or an exponent is read by Number.
 */
export function scanColumn(text: string, n: number): Float64Array {
  const out = new Float64Array(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const start = at;
    let value = 0;
    let scale = 1;
    let fraction = false;
    let plain = true;
    let negative = false;
    for (; at < text.length; at++) {
      const ch = text.charCodeAt(at);
      if (ch === 44) break; // ,
      if (ch >= 48 && ch <= 57) {
        value = value * 10 + (ch - 48);
        if (fraction) scale *= 10;
      } else if (ch === 46)
        fraction = true; // .
      else if (ch === 45 && at === start)
        negative = true; // -
      else plain = false;
    }
    if (at === start) out[i] = Number.NaN;
    else if (plain && value <= Number.MAX_SAFE_INTEGER && scale <= 1e22) out[i] = (negative ? -value : value) / scale;
    else out[i] = Number(text.slice(start, at));
    at++; // past the comma
  }
  return out;
}

/** The tickets ticketFigures counts, column by column (NaN for null). */
interface TicketColumns {
  n: number;
  /** The creation in microseconds from the range's start; the other instants in microseconds from the creation. */
  created: Float64Array;
  responded: Float64Array;
  solved: Float64Array;
  frDue: Float64Array;
  resDue: Float64Array;
  frBusiness: Float64Array;
  resBusiness: Float64Array;
  /** 1-based places in TICKET_SOURCES, TICKET_PRIORITIES and members. */
  source: Float64Array;
  priority: Float64Array;
  assignee: Float64Array;
  number: Float64Array;
  /** Weekday (0: Sunday) x 24 + hour of the creation in the time zone; NaN for the tickets created before the range. */
  dowHour: Float64Array;
  tags: string[][];
  members: string[];
}

const DAY_MICROS = 86_400_000_000;

/**
 * Calendar minutes between two instants in microseconds, as PostgreSQL's date_part('epoch', b - a) / 60 answers
 * them: the difference of two timestamps is an interval of whole days and the microseconds left (justify_hours), and
 * its epoch is those microseconds / 1e6 plus the days' seconds, in float8, in that order.
 */
export function calendarMinutes(fromMicros: number, toMicros: number): number {
  const diff = toMicros - fromMicros;
  const days = Math.trunc(diff / DAY_MICROS);
  return ((diff - days * DAY_MICROS) / 1_000_000 + 86_400 * days) / 60;
}

/**
 * Rearranges values[lo..hi] so that values[k] is the one a sort would put there, the ones before it no greater and the
 * ones after it no smaller (quickselect: a percentile needs two values of a group, not the group sorted).
 */
function selectNth(values: Float64Array, lo: number, hi: number, k: number) {
  let left = lo;
  let right = hi;
  while (right > left) {
    const a = values[left] as number;
    const b = values[(left + right) >> 1] as number;
    const c = values[right] as number;
    // The median of three as pivot.
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/**
 * percentile_cont(fraction) of a group's values as PostgreSQL answers it: the values at floor and ceil of
 * fraction x (count - 1) in order, interpolated linearly (null: no values). The values at or after `from` must be
 * no smaller than those before it (a smaller fraction's selection); they are rearranged.
 */
export function percentileCont(values: Float64Array, fraction: number, from = 0): number | null {
  const n = values.length;
  if (n === 0) return null;
  const position = fraction * (n - 1);
  const first = Math.floor(position);
  const second = Math.ceil(position);
  selectNth(values, from, n - 1, first);
  const low = values[first] as number;
  if (first === second) return low;
  let high = values[first + 1] as number;
  for (let i = first + 2; i < n; i++) if ((values[i] as number) < high) high = values[i] as number;
  return low + (position - first) * (high - low);
}

/** The median and 90th percentile of a group's values (percentileCont), null when there are none. */
function medianAndP90(list: number[]): [number | null, number | null] {
  const values = new Float64Array(list);
  const median = percentileCont(values, 0.5);
  return [median, percentileCont(values, 0.9, Math.floor(0.5 * (values.length - 1)))];
}

/** A group's times for its percentiles: calendar and business minutes (nulls left out, as percentile_cont does). */
class Times {
  n = 0;
  minutes: number[] = [];
  business: number[] = [];
  add(minutes: number, business: number) {
    this.n++;
    this.minutes.push(minutes);
    if (!Number.isNaN(business)) this.business.push(business);
  }
  figure(kind: TicketFigure["kind"], a: number | null, key: string | null): TicketFigure {
    const [m50, m90] = medianAndP90(this.minutes);
    const [b50, b90] = medianAndP90(this.business);
    return { ...plainFigure(kind, a, null, key, this.n), m50, m90, b50, b90 };
  }
}

const plainFigure = (
  kind: TicketFigure["kind"],
  a: number | null,
  b: number | null,
  key: string | null,
  n: number,
): TicketFigure => ({ kind, a, b, key, n, m50: null, m90: null, b50: null, b90: null, list: null });

/** width_bucket(value, bounds): how many bounds are at or before the value (0: before the first). */
function bucketIn(bounds: number[], value: number): number {
  let lo = 0;
  let hi = bounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A group's Times, made when first needed. */
function timesOf(groups: Times[], key: number): Times {
  let times = groups[key];
  if (!times) {
    times = new Times();
    groups[key] = times;
  }
  return times;
}

/**
 * The figures of TicketFigure from the tickets' columns, in one pass: `start` the range's start, `bounds` the periods'
 * (and the range's end) and `at` the clock, all in microseconds.
 */
function countFigures(
  x: TicketColumns,
  start: number,
  bounds: number[],
  at: number,
  breachedMax: number,
): TicketFigure[] {
  const last = bounds.length - 1;
  const S = TICKET_SOURCES.length + 1;
  const P = TICKET_PRIORITIES.length + 1;
  const created = new Int32Array((last + 1) * S);
  const solved = new Int32Array((last + 1) * S);
  const solvedByAgent = new Int32Array(x.members.length + 1);
  // Per priority: tickets created in the range, first response met, missed, resolution met, missed.
  const sla = new Int32Array(P * 5);
  const hours = new Int32Array(7 * 24);
  const tagged = new Map<string, Int32Array>();
  // By period (bucket) and by assignee's place.
  const responded: Times[] = [];
  const respondedAll = new Times();
  const respondedByAgent: Times[] = [];
  const resolved: Times[] = [];
  const resolvedAll = new Times();
  const missed: { due: number; number: number; priority: number; kind: 0 | 1 }[] = [];
  let nextDue = Number.NaN;
  for (let i = 0; i < x.n; i++) {
    const createdAt = start + (x.created[i] as number);
    const source = x.source[i] as number;
    const assignee = x.assignee[i] as number; // NaN: none
    const respondedAt = createdAt + (x.responded[i] as number); // NaN: none
    const solvedAt = createdAt + (x.solved[i] as number);
    if (!Number.isNaN(solvedAt)) {
      const b = bucketIn(bounds, solvedAt);
      if (b >= 1 && b <= last) {
        solved[b * S + source] = (solved[b * S + source] as number) + 1;
        if (!Number.isNaN(assignee)) solvedByAgent[assignee] = (solvedByAgent[assignee] as number) + 1;
        const minutes = calendarMinutes(createdAt, solvedAt);
        const business = x.resBusiness[i] as number;
        timesOf(resolved, b).add(minutes, business);
        resolvedAll.add(minutes, business);
      }
    }
    if (!Number.isNaN(respondedAt)) {
      const b = bucketIn(bounds, respondedAt);
      if (b >= 1 && b <= last) {
        const minutes = calendarMinutes(createdAt, respondedAt);
        const business = x.frBusiness[i] as number;
        timesOf(responded, b).add(minutes, business);
        respondedAll.add(minutes, business);
        if (!Number.isNaN(assignee)) timesOf(respondedByAgent, assignee).add(minutes, business);
      }
    }
    if (createdAt < start) continue; // created before the range: answered or solved in it, counted above
    const b = bucketIn(bounds, createdAt);
    if (b >= 1 && b <= last) {
      created[b * S + source] = (created[b * S + source] as number) + 1;
      for (const tag of x.tags[i] ?? []) {
        let counts = tagged.get(tag);
        if (!counts) {
          counts = new Int32Array(last + 1);
          tagged.set(tag, counts);
        }
        counts[b] = (counts[b] as number) + 1;
      }
    }
    const dowHour = x.dowHour[i] as number;
    hours[dowHour] = (hours[dowHour] as number) + 1;
    const p = (x.priority[i] as number) * 5;
    sla[p] = (sla[p] as number) + 1;
    const frDue = createdAt + (x.frDue[i] as number);
    const resDue = createdAt + (x.resDue[i] as number);
    // A due time is met when done by it, missed when done after it or not done and past at `at`.
    if (!Number.isNaN(frDue)) {
      if (Number.isNaN(respondedAt) ? frDue < at : respondedAt > frDue) {
        sla[p + 2] = (sla[p + 2] as number) + 1;
        missed.push({ due: frDue, number: x.number[i] as number, priority: p / 5, kind: 0 });
      } else if (!Number.isNaN(respondedAt)) sla[p + 1] = (sla[p + 1] as number) + 1;
      else if (!(frDue >= nextDue)) nextDue = frDue;
    }
    if (!Number.isNaN(resDue)) {
      if (Number.isNaN(solvedAt) ? resDue < at : solvedAt > resDue) {
        sla[p + 4] = (sla[p + 4] as number) + 1;
        missed.push({ due: resDue, number: x.number[i] as number, priority: p / 5, kind: 1 });
      } else if (!Number.isNaN(solvedAt)) sla[p + 3] = (sla[p + 3] as number) + 1;
      else if (!(resDue >= nextDue)) nextDue = resDue;
    }
  }
  const out: TicketFigure[] = [];
  const member = (place: number) => x.members[place - 1] ?? null;
  for (let b = 1; b <= last; b++) {
    for (let s = 1; s < S; s++) {
      const key = TICKET_SOURCES[s - 1] ?? null;
      const c = created[b * S + s] as number;
      const v = solved[b * S + s] as number;
      if (c > 0) out.push(plainFigure("created", b, null, key, c));
      if (v > 0) out.push(plainFigure("solved", b, null, key, v));
    }
  }
  solvedByAgent.forEach((v, place) => {
    if (v > 0) out.push(plainFigure("solved_agent", null, null, member(place), v));
  });
  for (let p = 1; p < P; p++) {
    const n = sla[p * 5] as number;
    if (n === 0) continue;
    out.push({
      ...plainFigure("sla", null, null, TICKET_PRIORITIES[p - 1] ?? null, n),
      m50: sla[p * 5 + 1] as number,
      m90: sla[p * 5 + 2] as number,
      b50: sla[p * 5 + 3] as number,
      b90: sla[p * 5 + 4] as number,
    });
  }
  hours.forEach((v, dh) => {
    if (v > 0) out.push(plainFigure("hour", Math.floor(dh / 24), dh % 24, null, v));
  });
  responded.forEach((times, b) => {
    out.push(times.figure("first_response", b, null));
  });
  out.push(respondedAll.figure("first_response", null, null));
  respondedByAgent.forEach((times, place) => {
    out.push(times.figure("first_response_agent", null, member(place)));
  });
  resolved.forEach((times, b) => {
    out.push(times.figure("resolution", b, null));
  });
  out.push(resolvedAll.figure("resolution", null, null));
  // By due time, number and kind (first_response before resolution), as the list is shown.
  missed.sort((p, q) => p.due - q.due || p.number - q.number || p.kind - q.kind);
  const list = missed.slice(0, breachedMax).map(
    (m): BreachedDue => ({
      id: "",
      number: m.number,
      priority: TICKET_PRIORITIES[m.priority - 1] as TicketPriority,
      kind: m.kind === 0 ? "first_response" : "resolution",
      due: m.due / 1000,
    }),
  );
  out.push({ ...plainFigure("breached", null, null, null, 0), list });
  for (const [tag, counts] of tagged) {
    counts.forEach((v, b) => {
      if (v > 0) out.push(plainFigure("tag", b, null, tag, v));
    });
  }
  out.push({
    ...plainFigure("next_due", null, null, null, 0),
    m50: Number.isNaN(nextDue) ? null : Math.floor(nextDue / 1000),
  });
  return out;
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
