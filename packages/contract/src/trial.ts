import { z } from "zod";

export const trialStatus = z.object({
  isTrial: z.boolean(),
  daysRemaining: z.number().int().min(0),
  isExpired: z.boolean(),
  trialEndsAt: z.iso.datetime().nullable(),
  plan: z.string(),
});
export type TrialStatus = z.infer<typeof trialStatus>;
