import type { TrialStatus } from "@cove/contract/trial.ts";
import { trialDaysRemaining } from "@cove/contract/trial.ts";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { bearer, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const status = async (token: string) => {
  const res = await t.app.inject({ method: "GET", url: "/api/trial/status", headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json() as TrialStatus;
};

describe("GET /api/trial/status", () => {
  it("starts a new organization on a 14-day trial", async () => {
    const { token } = await registerOrg(t.app);
    expect(await status(token)).toMatchObject({ isTrial: true, daysRemaining: 14, isExpired: false, plan: "growth" });
  });

  it("reports an expired trial with no days left", async () => {
    const { token, user } = await registerOrg(t.app);
    await t.database.db
      .update(organizations)
      .set({ trialEndsAt: new Date(Date.now() - 60_000) })
      .where(eq(organizations.id, user.organizationId));
    expect(await status(token)).toMatchObject({ isTrial: true, daysRemaining: 0, isExpired: true });
  });

  it("says no trial once the organization pays", async () => {
    const { token, user } = await registerOrg(t.app);
    await t.database.db
      .update(organizations)
      .set({ subscriptionStatus: "active", plan: "starter" })
      .where(eq(organizations.id, user.organizationId));
    expect(await status(token)).toMatchObject({ isTrial: false, isExpired: false, daysRemaining: 0, plan: "starter" });
  });

  it("answers each organization about its own trial", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    await t.database.db
      .update(organizations)
      .set({ trialEndsAt: new Date(Date.now() + 2 * 86_400_000) })
      .where(eq(organizations.id, a.user.organizationId));
    expect((await status(a.token)).daysRemaining).toBe(2);
    expect((await status(b.token)).daysRemaining).toBe(14);
  });

  it("requires a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/trial/status" });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("UNAUTHORIZED");
  });
});

describe("trialDaysRemaining", () => {
  const at = (iso: string) => new Date(iso);
  it("counts calendar days to the last day of the trial", () => {
    expect(trialDaysRemaining(at("2026-11-01T09:00:00Z"), at("2026-11-15T09:00:00Z"), "UTC")).toBe(14);
    expect(trialDaysRemaining(at("2026-11-14T23:59:00Z"), at("2026-11-15T09:00:00Z"), "UTC")).toBe(1);
    expect(trialDaysRemaining(at("2026-11-15T00:01:00Z"), at("2026-11-15T09:00:00Z"), "UTC")).toBe(0);
    expect(trialDaysRemaining(at("2026-11-15T09:00:00Z"), at("2026-11-15T09:00:00Z"), "UTC")).toBe(0);
    expect(trialDaysRemaining(at("2026-12-01T00:00:00Z"), at("2026-11-15T09:00:00Z"), "UTC")).toBe(0);
  });

  it("uses the organization's time zone for the day boundary", () => {
    // 23:30 UTC on the 14th is already the 15th in Tokyo: the last day there.
    expect(trialDaysRemaining(at("2026-11-14T23:30:00Z"), at("2026-11-15T12:00:00Z"), "Asia/Tokyo")).toBe(0);
    expect(trialDaysRemaining(at("2026-11-14T23:30:00Z"), at("2026-11-15T12:00:00Z"), "UTC")).toBe(1);
  });

  it("is not thrown off by a daylight-saving change", () => {
    expect(trialDaysRemaining(at("2026-10-20T12:00:00Z"), at("2026-11-03T12:00:00Z"), "America/New_York")).toBe(14);
  });
});
