import { sql } from "drizzle-orm";
import { chatSessions } from "../../db/schema/chat.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * Live chat figures for the reports (docs/reports.md), in the caller's transaction: chats by the day (in the time
 * zone) they started, start included and end not; agent: only the chats assigned to that member.
 */

/** Which chats a figure counts: the organization's, started in [start, end), and the agent's alone when one is named. */
export interface ChatSpan {
  orgId: string;
  agent: string | undefined;
  start: string;
  end: string;
  /** The time zone days and hours are counted in. */
  timezone: string;
}

const inSpan = ({ orgId, agent, start, end }: ChatSpan) =>
  sql`c.organization_id = ${orgId} and c.started_at >= ${start}::timestamptz and c.started_at < ${end}::timestamptz
      ${agent ? sql`and c.assigned_agent_id = ${agent}` : sql``}`;

/**
 * Per day: chats started; resolved by the assistant alone (resolved_by_ai, set at close); handed off to a person;
 * and the visitors' "How did we do?" answers, split by who resolved the chat.
 */
export function chatsByDay(db: Queryable, span: ChatSpan) {
  const { timezone } = span;
  return queryRows<{
    day: string;
    chats: number;
    resolved_by_ai: number;
    handed_off: number;
    ai_good: number;
    ai_bad: number;
    people_good: number;
    people_bad: number;
  }>(
    db,
    // Grouped by the local date, each group's day written once (as csat's surveysByDay).
    sql`select to_char(g.d::timestamp, 'YYYY-MM-DD') as day, g.chats, g.resolved_by_ai, g.handed_off, g.ai_good, g.ai_bad,
               g.people_good, g.people_bad from (
          select (c.started_at at time zone ${timezone})::date as d, count(*)::int as chats,
                 count(*) filter (where c.resolved_by_ai)::int as resolved_by_ai,
                 count(c.handed_off_at)::int as handed_off,
                 count(*) filter (where c.resolved_by_ai and c.rating = 'good')::int as ai_good,
                 count(*) filter (where c.resolved_by_ai and c.rating = 'bad')::int as ai_bad,
                 count(*) filter (where not c.resolved_by_ai and c.rating = 'good')::int as people_good,
                 count(*) filter (where not c.resolved_by_ai and c.rating = 'bad')::int as people_bad
          from ${chatSessions} c
          where ${inSpan(span)}
          group by 1) g`,
  );
}

/** Chats started per weekday (0: Sunday) and hour, in the time zone. */
export function chatsByHour(db: Queryable, span: ChatSpan) {
  const { timezone } = span;
  return queryRows<{ dow: number; hour: number; n: number }>(
    db,
    sql`select extract(dow from c.started_at at time zone ${timezone})::int as dow,
               extract(hour from c.started_at at time zone ${timezone})::int as hour, count(*)::int as n
        from ${chatSessions} c
        where ${inSpan(span)}
        group by 1, 2`,
  );
}
