import type { OrganizationStats } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { ticketsCreatedPerDay } from "../tickets/index.ts";

/** Active team members, and tickets created per day over the last 30 days (days with tickets only). */
export async function organizationStats(ctx: Ctx): Promise<OrganizationStats> {
  const [users] = await queryRows<{ active: number; total: number }>(
    ctx.db,
    sql`select count(*) filter (where status = 'active')::int as active, count(*)::int as total
        from users where organization_id = ${ctx.orgId}`,
  );
  const trend = await ticketsCreatedPerDay(ctx.db, ctx.orgId);
  return {
    basicStats: { active_users: users?.active ?? 0, total_users: users?.total ?? 0 },
    ticketTrends: trend.map((d) => ({ date: d.day, tickets_created: d.created })),
  };
}
