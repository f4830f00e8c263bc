import { type TrialStatus, trialDaysRemaining } from "@cove/contract/trial.ts";
import { now as clockNow } from "../../platform/clock.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { accessAt, readBillingState } from "./access.ts";

export async function trialStatus(ctx: Ctx, now = clockNow()): Promise<TrialStatus> {
  const org = await readBillingState(ctx.db, ctx.orgId);
  if (!org) throw notFound("Organization");
  const isTrial = org.status === "trialing" && org.trialEndsAt !== null;
  const endsAt = org.trialEndsAt;
  return {
    isTrial,
    isExpired: isTrial && endsAt !== null && now >= endsAt,
    daysRemaining: isTrial && endsAt ? trialDaysRemaining(now, endsAt, org.timezone) : 0,
    trialEndsAt: endsAt ? endsAt.toISOString() : null,
    plan: org.plan,
    subscription_status: org.status,
    access: accessAt(org, now),
  };
}
