import type { TicketStats } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { filled } from "../../platform/db.ts";
import { type OneRead, type Reader, readIn, type TenantCtx } from "../../platform/tenancy.ts";

/** The overview's statement, built once with the organization apart (Filled, platform/db.ts). */
const overview = sql`
    with bounds as (
      select (date_trunc('day', now() at time zone timezone) at time zone timezone) as today,
             (date_trunc('week', now() at time zone timezone) at time zone timezone) as week
      from organizations where id = ${sql.placeholder("org")}
    ),
    tally as (
      select coalesce(sum(n), 0)::int as total,
             coalesce(sum(n) filter (where status = 'open'), 0)::int as open,
             coalesce(sum(n) filter (where priority = 'urgent'), 0)::int as urgent,
             coalesce(sum(n) filter (where priority = 'high'), 0)::int as high,
             (sum(resolved_seconds) / nullif(sum(resolved_n), 0) / 3600)::float8 as avg_hours
      from ticket_totals where organization_id = ${sql.placeholder("org")}
    )
    -- The bounds as scalar subqueries, so the planner treats them as values its index scans can start from.
    select tally.*,
           (select coalesce(sum(n), 0)::int from ticket_tallies
            where organization_id = ${sql.placeholder("org")} and assignee_id is null) as unassigned,
           (select count(*)::int from tickets
            where organization_id = ${sql.placeholder("org")} and status = 'solved'
              and solved_at >= (select today from bounds)) as solved_today,
           (select count(*)::int from tickets
            where organization_id = ${sql.placeholder("org")} and created_at >= (select week from bounds)) as this_week
    from tally`;

/** The overview's row. */
interface OverviewRow {
  total: number;
  open: number;
  solved_today: number;
  urgent: number;
  unassigned: number;
  high: number;
  this_week: number;
  avg_hours: number | null;
}

/**
 * The dashboard's figures. Counts and the average resolution time add up ticket_totals (and ticket_tallies for the
 * unassigned); Solved Today and This Week read one day's or week's tickets off their indexes. "Today" and "this week"
 * follow the organization's time zone; Solved Today counts tickets whose status became solved today. A OneRead
 * (platform/tenancy.ts): its route sends it with its transaction's BEGIN and COMMIT.
 */
export function ticketStatsRead(reader: Reader): OneRead<OverviewRow, TicketStats> {
  return {
    statement: filled(overview, { org: reader.orgId }),
    byValue: false,
    answer: ([row]) => ({
      total_tickets: row?.total ?? 0,
      open_tickets: row?.open ?? 0,
      tickets_today: row?.solved_today ?? 0,
      urgent_tickets: row?.urgent ?? 0,
      unassigned_tickets: row?.unassigned ?? 0,
      high_priority_tickets: row?.high ?? 0,
      tickets_this_week: row?.this_week ?? 0,
      avg_resolution_hours: row?.avg_hours === null || row?.avg_hours === undefined ? null : Number(row.avg_hours),
    }),
  };
}

/** The dashboard's figures (ticketStatsRead) in a transaction already open. */
export const ticketStats = (ctx: TenantCtx) => readIn(ctx.db, ticketStatsRead(ctx));
