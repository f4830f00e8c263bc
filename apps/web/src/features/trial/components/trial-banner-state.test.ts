import { describe, expect, it } from "vitest";
import { fullAccess } from "../../../test/trial-fixtures.ts";
import { trialBannerState } from "./trial-banner-state.ts";

const onTrial = (daysRemaining: number) => ({ isTrial: true, isExpired: false, daysRemaining });

describe("trialBannerState", () => {
  it.each([
    [0, "Your free trial expires today", "orange"],
    [1, "Your free trial expires tomorrow", "orange"],
    [2, "Your free trial expires in 2 days", "orange"],
    [3, "Your free trial expires in 3 days", "orange"],
    [4, "Your free trial expires in 4 days", "yellow"],
    [7, "Your free trial expires in 7 days", "yellow"],
    [8, "Your free trial expires in 8 days", "blue"],
    [14, "Your free trial expires in 14 days", "blue"],
  ])("with %i days left says %j in %s", (days, message, tone) => {
    expect(trialBannerState(onTrial(days))).toMatchObject({ message, tone, upgrade: "convert" });
  });

  it("shows an expired trial in red", () => {
    expect(trialBannerState({ isTrial: true, isExpired: true, daysRemaining: 0 })).toMatchObject({
      message: "Your free trial has expired",
      tone: "red",
    });
  });

  it("shows nothing when the organization is not on trial", () => {
    expect(trialBannerState({ isTrial: false, isExpired: false, daysRemaining: 0 })).toBeNull();
  });

  const access = fullAccess;
  const paid = { isTrial: false, isExpired: false, daysRemaining: 0 };

  it("says why a paid organization is read-only, in red, pointing to billing", () => {
    const state = trialBannerState({
      ...paid,
      access: { ...access, read_only: true, reason: "payment_overdue", message: "Your last payment failed..." },
    });
    expect(state).toEqual({
      message: "Your workspace is read-only",
      detail: "Your last payment failed...",
      tone: "red",
      upgrade: "billing",
    });
  });

  it("warns in orange during a failed payment's grace period", () => {
    const state = trialBannerState({
      ...paid,
      access: { ...access, grace_ends_at: "2026-12-01T00:00:00.000Z", message: "Update the card by..." },
    });
    expect(state).toMatchObject({ message: "Your last payment failed", tone: "orange" });
  });

  it("shows the server's reason on an expired trial", () => {
    const state = trialBannerState({
      isTrial: true,
      isExpired: true,
      daysRemaining: 0,
      access: { ...access, read_only: true, reason: "trial_expired", message: "Your free trial has ended, so..." },
    });
    expect(state?.detail).toBe("Your free trial has ended, so...");
  });
});
