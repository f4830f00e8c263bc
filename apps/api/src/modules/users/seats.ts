import { PLANS, type PlanId } from "@cove/contract/constants.ts";
import type { SeatUsage } from "@cove/contract/users.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";

/**
 * Locks the organization's row until the transaction ends, so team changes of one organization happen one at a time:
 * two invitations cannot both take the last seat, and two admins cannot demote each other at once. It is the first lock
 * a team change takes, and a NO KEY UPDATE lock, as a ticket number's UPDATE of the row takes: it queues team changes
 * and ticket creations behind each other but never blocks the KEY SHARE lock that every foreign key to the
 * organization takes, so ticket writes and replies go on while a team change runs (the lock order:
 * docs/decisions/2026-11-25-lock-order-and-sharded-versions.md).
 */
export async function lockTeam(ctx: Ctx): Promise<void> {
  const [org] = await queryRows<{ id: string }>(
    ctx.db,
    sql`select id from organizations where id = ${ctx.orgId} for no key update`,
  );
  if (!org) throw notFound("Organization");
}

/** Staff users who hold a seat (active or invited) against the plan's limit; a trial runs on Growth limits. */
export async function seatUsage(ctx: Ctx): Promise<SeatUsage & { trial: boolean }> {
  const [row] = await queryRows<{ plan: PlanId; status: string; used: number }>(
    ctx.db,
    sql`select o.plan, o.subscription_status as status,
          (select count(*)::int from users u
            where u.organization_id = o.id and u.status in ('active', 'invited')) as used
        from organizations o where o.id = ${ctx.orgId}`,
  );
  if (!row) throw notFound("Organization");
  const plan = PLANS[row.plan];
  return {
    plan: plan.id,
    plan_name: plan.name,
    used: row.used,
    limit: plan.maxAgents,
    trial: row.status === "trialing",
  };
}

/** Refuses to add one more seat past the plan's limit, naming the plan and its limit. */
export async function assertSeatAvailable(ctx: Ctx): Promise<void> {
  const seats = await seatUsage(ctx);
  if (seats.limit === null || seats.used < seats.limit) return;
  const limit = seats.trial
    ? `Your trial has the ${seats.plan_name} plan's limit of ${seats.limit} team members`
    : `The ${seats.plan_name} plan allows up to ${seats.limit} team members`;
  throw new AppError(
    "SEAT_LIMIT",
    `${limit} (active and invited), and all are taken. Upgrade your plan, or deactivate a member or revoke an invitation first.`,
  );
}
