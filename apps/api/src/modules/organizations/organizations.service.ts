import type { OrganizationStats } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";

/** Active team members, and tickets created per day over the last 30 days (days with tickets only). */
export async function organizationStats(ctx: Ctx): Promise<OrganizationStats> {
  const [users] = await queryRows<{ active: number; total: number }>(
    ctx.db,
    sql`select count(*) filter (where status = 'active')::int as active, count(*)::int as total
        from users where organization_id = ${ctx.orgId}`,
  );
  const trend = await queryRows<{ day: string; created: number }>(
    ctx.db,
    sql`with tz as (select timezone as name from organizations where id = ${ctx.orgId})
        select to_char(date_trunc('day', t.created_at at time zone tz.name), 'YYYY-MM-DD') as day, count(*)::int as created
        from tickets t, tz
        where t.organization_id = ${ctx.orgId}
          and t.created_at >= (date_trunc('day', now() at time zone tz.name) at time zone tz.name) - interval '29 days'
        group by 1 order by 1`,
  );
  return {
    basicStats: { active_users: users?.active ?? 0, total_users: users?.total ?? 0 },
    ticketTrends: trend.map((d) => ({ date: d.day, tickets_created: d.created })),
  };
}
