import type { CsatRating } from "@cove/contract/csat.ts";
import { type SQL, sql } from "drizzle-orm";
import { csatSurveys } from "../../db/schema/csat.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * Satisfaction figures for the reports (docs/reports.md), in the caller's transaction. A survey belongs to the day of
 * the solve it asks about (the ticket's last solve); `tickets` is the tickets module's subquery of the ticket ids the
 * report's filters keep; start and end are instants (start included).
 */

/**
 * Surveys per day (in the time zone) and agent credited with the solve (null: nobody): sent, answered, good and bad.
 * tickets: null when no filter applies (every ticket's survey counts).
 */
export function surveysByDay(
  db: Queryable,
  orgId: string,
  tickets: SQL | null,
  start: string,
  end: string,
  timezone: string,
) {
  return queryRows<{
    day: string;
    agent_id: string | null;
    sent: number;
    answered: number;
    good: number;
    bad: number;
  }>(
    db,
    // Grouped by the local date and each group's day written once, not each survey's (to_char per row was about a
    // third of the statement).
    sql`select to_char(g.d::timestamp, 'YYYY-MM-DD') as day, g.agent_id, g.sent, g.answered, g.good, g.bad from (
          select (s.solved_at at time zone ${timezone})::date as d, s.agent_id, count(*)::int as sent,
                 count(s.rating)::int as answered,
                 count(*) filter (where s.rating = 'good')::int as good,
                 count(*) filter (where s.rating = 'bad')::int as bad
          from ${csatSurveys} s
          where s.organization_id = ${orgId} and s.solved_at >= ${start}::timestamptz and s.solved_at < ${end}::timestamptz
            ${tickets ? sql`and s.ticket_id in (${tickets})` : sql``}
          group by 1, 2) g`,
  );
}

/** The answers given to these tickets' surveys, by ticket id. */
export async function ratingsOfTickets(db: Queryable, orgId: string, ticketIds: string[]) {
  if (ticketIds.length === 0) return new Map<string, CsatRating>();
  const rows = await queryRows<{ ticket_id: string; rating: CsatRating }>(
    db,
    sql`select s.ticket_id, s.rating from ${csatSurveys} s
        where s.organization_id = ${orgId} and s.rating is not null
          and s.ticket_id = any(${`{${ticketIds.join(",")}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.ticket_id, r.rating]));
}
