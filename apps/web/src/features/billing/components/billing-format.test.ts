import { describe, expect, it } from "vitest";
import { longDate, planChangeWording, trialEndWording } from "./billing-format.ts";

describe("trialEndWording", () => {
  it("counts days from today's date to the end's date, as the trial banner does, not in 24-hour steps", () => {
    // 14 days and 2 hours before the end: the banner says 14 days left (January 1 to January 15), and so does this.
    const endsAt = "2030-01-15T08:00:00.000Z";
    expect(trialEndWording(endsAt, "UTC", new Date("2030-01-01T06:00:00.000Z"))).toBe(
      "Your free trial ends on January 15, 2030 (in 14 days).",
    );
    expect(trialEndWording(endsAt, "UTC", new Date("2030-01-14T23:00:00.000Z"))).toBe(
      "Your free trial ends on January 15, 2030 (tomorrow).",
    );
    expect(trialEndWording(endsAt, "UTC", new Date("2030-01-15T07:00:00.000Z"))).toBe(
      "Your free trial ends on January 15, 2030 (today).",
    );
  });

  it("counts them in the organization's time zone", () => {
    // 08:00 UTC on January 15 is 21:00 on January 15 in Auckland; 20:00 UTC on January 1 is already January 2 there.
    expect(trialEndWording("2030-01-15T08:00:00.000Z", "Pacific/Auckland", new Date("2030-01-01T20:00:00.000Z"))).toBe(
      "Your free trial ends on January 15, 2030 (in 13 days).",
    );
    // 02:00 UTC on January 15 is still January 14 in Los Angeles.
    expect(
      trialEndWording("2030-01-15T02:00:00.000Z", "America/Los_Angeles", new Date("2030-01-01T20:00:00.000Z")),
    ).toBe("Your free trial ends on January 14, 2030 (in 13 days).");
  });
});

describe("longDate", () => {
  it("writes the day of the given time zone, and falls back to the browser's for a zone it does not know", () => {
    expect(longDate("2030-01-15T23:30:00.000Z", "Pacific/Auckland")).toBe("January 16, 2030");
    expect(longDate("2030-01-15T23:30:00.000Z", "UTC")).toBe("January 15, 2030");
    expect(longDate("2030-01-15T12:00:00.000Z", "Not/AZone")).toMatch(/^January 1[56], 2030$/);
    expect(longDate(null)).toBe("—");
  });
});

describe("planChangeWording", () => {
  it("dates the next invoice by the organization's time zone", () => {
    const preview = {
      plan: "business",
      plan_name: "Business",
      price: 9900,
      current_plan: "growth",
      current_plan_name: "Growth",
      proration: 2000,
      currency: "usd",
      // 23:30 UTC on March 16 is already March 17 in Auckland.
      next_invoice_at: "2030-03-16T23:30:00.000Z",
    } as const;
    expect(planChangeWording(preview, "Pacific/Auckland")).toContain("your next invoice, on March 17, 2030");
    expect(planChangeWording(preview, "UTC")).toContain("your next invoice, on March 16, 2030");
  });
});
