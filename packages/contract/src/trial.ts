import { z } from "zod";
import { accountAccess, convertTrialBody, SUBSCRIPTION_STATUSES, subscribeAnswer } from "./billing.ts";
import { defineRoute } from "./routes.ts";

export const trialStatus = z.object({
  isTrial: z.boolean(),
  daysRemaining: z.number().int().min(0),
  isExpired: z.boolean(),
  trialEndsAt: z.iso.datetime().nullable(),
  plan: z.string(),
  /** Cove's additions: the subscription's status and whether the organization is read-only, for the banner. */
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  access: accountAccess,
});
export type TrialStatus = z.infer<typeof trialStatus>;

/** The calendar date (YYYY-MM-DD) of an instant in a time zone (UTC's for a zone this runtime does not know). */
function dayIn(date: Date, timeZone: string): string {
  const options = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
  try {
    return new Intl.DateTimeFormat("en-CA", { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-CA", { ...options, timeZone: "UTC" }).format(date);
  }
}

/**
 * Whole calendar days from today until the day the trial ends, in the organization's time zone: 0 on the last day
 * ("expires today"), 1 the day before ("tomorrow"). One rule for the banner's daysRemaining (the API) and the Billing
 * page's "in N days" (the web).
 */
export function trialDaysRemaining(now: Date, endsAt: Date, timeZone: string): number {
  if (now >= endsAt) return 0;
  const days = (Date.parse(dayIn(endsAt, timeZone)) - Date.parse(dayIn(now, timeZone))) / 86_400_000;
  return Math.max(0, Math.round(days));
}

// Routes -------------------------------------------------------------------------------------------------------------

/** The trial: its banner, for every member; its conversion to a paid plan, for admins (docs/product.md, "Roles"). */
export const trialApi = {
  status: defineRoute({
    method: "GET",
    path: "/api/trial/status",
    summary: "The organization's trial: whether it is on one, days left, expired; and whether it is read-only",
    tags: ["billing"],
    access: "authenticated",
    answers: { 200: trialStatus },
  }),
  convert: defineRoute({
    method: "POST",
    path: "/api/trial/convert",
    summary: "Convert the trial to a paid plan (Starter unless another plan is sent) with the payment form's card",
    tags: ["billing"],
    access: "admin",
    body: convertTrialBody,
    answers: { 200: subscribeAnswer },
    // Not on a trial, already subscribed, or a payment under way; a plan with fewer seats than the team holds.
    errors: ["CONFLICT", "SEAT_LIMIT", "PAYMENT_FAILED", "PAYMENT_PROVIDER_ERROR"],
  }),
};
