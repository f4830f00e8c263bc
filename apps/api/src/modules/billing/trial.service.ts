import type { TrialStatus } from "@cove/contract/trial.ts";
import { now as clockNow } from "../../platform/clock.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { accessAt, readBillingState } from "./access.ts";

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
function dayIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/**
 * Whole calendar days from today until the day the trial ends, in the organization's time zone:
 * 0 on the last day ("expires today"), 1 the day before ("tomorrow").
 */
export function trialDaysRemaining(now: Date, endsAt: Date, timeZone: string): number {
  if (now >= endsAt) return 0;
  const days = (Date.parse(dayIn(endsAt, timeZone)) - Date.parse(dayIn(now, timeZone))) / 86_400_000;
  return Math.max(0, Math.round(days));
}

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
