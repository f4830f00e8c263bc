import type { TrialStatus } from "@cove/contract/trial.ts";

export type TrialBannerTone = "red" | "orange" | "yellow" | "blue";

export interface TrialBannerState {
  message: string;
  /** The second line: what this means and what to do. */
  detail: string;
  tone: TrialBannerTone;
  /** Whether paying is the way out (the banner offers the upgrade, or tells agents to ask an admin). */
  upgrade: "convert" | "billing" | null;
}

/**
 * What the banner says and how urgent it looks (docs/product.md, "States"): the trial's days, and Cove's account states beyond
 * it (read-only, a failed payment's grace period, a canceled subscription); null when there is nothing to say.
 */
export function trialBannerState(
  status: Pick<TrialStatus, "isTrial" | "daysRemaining" | "isExpired"> & Partial<Pick<TrialStatus, "access">>,
): TrialBannerState | null {
  const access = status.access;
  if (status.isTrial) {
    if (status.isExpired) {
      return {
        message: "Your free trial has expired",
        detail:
          access?.message ??
          "Your workspace is read-only until you subscribe. You can still read and export your data.",
        tone: "red",
        upgrade: "convert",
      };
    }
    const days = status.daysRemaining;
    const message =
      days === 0
        ? "Your free trial expires today"
        : days === 1
          ? "Your free trial expires tomorrow"
          : `Your free trial expires in ${days} days`;
    const tone: TrialBannerTone = days <= 3 ? "orange" : days <= 7 ? "yellow" : "blue";
    return {
      message,
      detail: "Pick a plan to keep your help desk running without interruption.",
      tone,
      upgrade: "convert",
    };
  }
  if (!access?.message) return null;
  if (access.read_only) {
    return { message: "Your workspace is read-only", detail: access.message, tone: "red", upgrade: "billing" };
  }
  const pastDue = access.grace_ends_at !== null;
  return {
    message: pastDue ? "Your last payment failed" : "Your subscription has ended",
    detail: access.message,
    tone: "orange",
    upgrade: "billing",
  };
}
