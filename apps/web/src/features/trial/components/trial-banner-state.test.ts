import { describe, expect, it } from "vitest";
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
    expect(trialBannerState(onTrial(days))).toEqual({ message, tone });
  });

  it("shows an expired trial in red", () => {
    expect(trialBannerState({ isTrial: true, isExpired: true, daysRemaining: 0 })).toEqual({
      message: "Your free trial has expired",
      tone: "red",
    });
  });

  it("shows nothing when the organization is not on trial", () => {
    expect(trialBannerState({ isTrial: false, isExpired: false, daysRemaining: 0 })).toBeNull();
  });
});
