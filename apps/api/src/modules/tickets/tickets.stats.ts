import type { TicketStats } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";

/**
 * The dashboard's figures in one pass over the organization's tickets. "Today" and "this week" follow the
 * organization's time zone; Solved Today counts tickets whose status became solved today.
 */
export async function ticketStats(ctx: Ctx): Promise<TicketStats> {
  const [row] = await queryRows<{
    total: number;
    open: number;
    solved_today: number;
    urgent: number;
    unassigned: number;
    high: number;
    this_week: number;
    avg_hours: number | null;
  }>(
    ctx.db,
    sql`
    with tz as (select timezone as name from organizations where id = ${ctx.orgId}),
    bounds as (
      select (date_trunc('day', now() at time zone tz.name) at time zone tz.name) as today,
             (date_trunc('week', now() at time zone tz.name) at time zone tz.name) as week
      from tz
    )
    select count(tickets.id)::int as total,
           count(*) filter (where status = 'open')::int as open,
           count(*) filter (where status = 'solved' and solved_at >= bounds.today)::int as solved_today,
           count(*) filter (where priority = 'urgent')::int as urgent,
           count(tickets.id) filter (where tickets.assignee_id is null)::int as unassigned,
           count(*) filter (where priority = 'high')::int as high,
           count(*) filter (where created_at >= bounds.week)::int as this_week,
           (avg(extract(epoch from (solved_at - created_at))) filter (where solved_at is not null) / 3600)::float8 as avg_hours
    from bounds left join tickets on tickets.organization_id = ${ctx.orgId}`,
  );
  return {
    total_tickets: row?.total ?? 0,
    open_tickets: row?.open ?? 0,
    tickets_today: row?.solved_today ?? 0,
    urgent_tickets: row?.urgent ?? 0,
    unassigned_tickets: row?.unassigned ?? 0,
    high_priority_tickets: row?.high ?? 0,
    tickets_this_week: row?.this_week ?? 0,
    avg_resolution_hours: row?.avg_hours === null || row?.avg_hours === undefined ? null : Number(row.avg_hours),
  };
}
