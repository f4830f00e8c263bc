import { z } from "zod";
import { accountAccess, SUBSCRIPTION_STATUSES } from "./billing.ts";

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
