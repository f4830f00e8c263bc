import type { TrialStatus } from "@cove/contract/trial.ts";

export type TrialBannerTone = "red" | "orange" | "yellow" | "blue";

export interface TrialBannerState {
  message: string;
  tone: TrialBannerTone;
}

/** What the trial banner says and how urgent it looks (spec section 4); null when the organization is not on trial. */
export function trialBannerState(
  status: Pick<TrialStatus, "isTrial" | "daysRemaining" | "isExpired">,
): TrialBannerState | null {
  if (!status.isTrial) return null;
  if (status.isExpired) return { message: "Your free trial has expired", tone: "red" };
  const days = status.daysRemaining;
  const message =
    days === 0
      ? "Your free trial expires today"
      : days === 1
        ? "Your free trial expires tomorrow"
        : `Your free trial expires in ${days} days`;
  const tone: TrialBannerTone = days <= 3 ? "orange" : days <= 7 ? "yellow" : "blue";
  return { message, tone };
}
