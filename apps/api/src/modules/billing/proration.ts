import { PLANS, type PlanId } from "@cove/contract/constants.ts";

/**
 * What moving from one plan to another part-way through a period is worth, in cents, prorated by time as card
 * providers do it (Stripe's create_prorations): the new plan's price for the time left, less the old plan's for the
 * same time. Positive: owed, added to the next invoice; negative: a credit on it. Nothing is charged at the change.
 */
export function prorationCents(from: PlanId, to: PlanId, periodStart: Date, periodEnd: Date, at: Date): number {
  const total = periodEnd.getTime() - periodStart.getTime();
  if (total <= 0 || from === to) return 0;
  const left = Math.min(Math.max(periodEnd.getTime() - at.getTime(), 0), total);
  return Math.round(((PLANS[to].price - PLANS[from].price) * 100 * left) / total);
}
