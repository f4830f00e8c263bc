import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeclaredRoute } from "../src/app.ts";
import { findOrCreateContact, startContactSession } from "../src/modules/contacts/contacts.service.ts";
import { withSystem } from "../src/platform/tenancy.ts";
import { addMember, bearer, createTestApp, registerOrg, type TestApp } from "./helpers.ts";
import { clockAhead } from "./support/billing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  clockAhead(0);
});

const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const ID = "00000000-0000-4000-8000-000000000000";

/** Every signed-in write route the app declares: a route added later is in this list without anyone adding it. */
const signedInWrites = (routes: DeclaredRoute[]) =>
  routes.filter((r) => WRITE.has(r.method) && (r.access === "authenticated" || r.access === "admin"));

const path = (url: string) => url.replace(/:[A-Za-z]+/g, ID);

/** The writes that stay open while read-only: signing out, one's own account, paying, exporting, deleting. */
const ALLOWED = [
  "POST /api/auth/logout",
  "PUT /api/auth/profile",
  // Dismissing the getting-started checklist is one's own view of the dashboard.
  "PUT /api/onboarding",
  "POST /api/billing/subscribe",
  "POST /api/billing/cancel",
  "POST /api/billing/resume",
  "POST /api/billing/change-plan",
  "POST /api/billing/payment-method",
  // Who the invoices are addressed to is part of paying: set it before subscribing to get out of read-only mode.
  "PUT /api/billing/details",
  "POST /api/trial/convert",
  "POST /api/test-provider/payment-methods",
  "POST /api/test-provider/confirm",
  "POST /api/test-provider/clock/advance",
  "POST /api/organization/export",
  "DELETE /api/organization",
  // Stopping Cove from reading a connected mailbox (and forgetting its password) never waits for a payment.
  "POST /api/email/mailboxes/:id/pause",
  "POST /api/email/mailboxes/:id/cancel",
  "DELETE /api/email/mailboxes/:id",
];

/**
 * Reads that need more than a signed-in caller: what they answer an expired trial, which is their own answer and not
 * READ_ONLY. A plan-change preview is about a subscription, which a trial has not.
 */
const NEEDS: Record<string, { query: string; status: number; code: string }> = {
  "/api/billing/change-plan/preview": { query: "?plan=business", status: 409, code: "CONFLICT" },
};

describe("read-only mode on every write route", () => {
  it("lists the exceptions exactly, so a new exception is a deliberate choice", () => {
    const allowed = signedInWrites(t.app.routeList)
      .filter((r) => r.allowedWhenReadOnly)
      .map((r) => `${r.method} ${r.url}`);
    expect(allowed.sort()).toEqual([...ALLOWED].sort());
    expect(signedInWrites(t.app.routeList).length).toBeGreaterThan(ALLOWED.length + 10);
  });

  it("refuses every other signed-in write of an expired trial with 402 READ_ONLY, whatever the body, for admins and agents", async () => {
    const { token, user } = await registerOrg(t.app);
    const agent = await addMember(t.database, user.organizationId);
    clockAhead(15);
    const guarded = signedInWrites(t.app.routeList).filter((r) => !r.allowedWhenReadOnly);
    for (const route of guarded) {
      for (const who of [token, agent.token]) {
        const res = await t.app.inject({
          method: route.method as "POST",
          url: path(route.url),
          headers: bearer(who),
          payload: {},
        });
        // An admin-only route still answers an agent 403 first: who may call it is settled before anything else.
        if (who === agent.token && route.access === "admin") {
          expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
          continue;
        }
        expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(402);
        expect(res.json().code).toBe("READ_ONLY");
        expect(res.json().error).toMatch(/^Your free trial has ended, so your organization is read-only/);
      }
    }
  });

  it("lets the same writes through before the trial ends (none answers READ_ONLY)", async () => {
    const { token } = await registerOrg(t.app);
    for (const route of signedInWrites(t.app.routeList).filter((r) => !r.allowedWhenReadOnly)) {
      if (route.url === "/api/organization") continue;
      const res = await t.app.inject({
        method: route.method as "POST",
        url: path(route.url),
        headers: bearer(token),
        payload: {},
      });
      expect(res.json().code, `${route.method} ${route.url}`).not.toBe("READ_ONLY");
    }
  });

  it("keeps every signed-in read working while read-only", async () => {
    const { token, user } = await registerOrg(t.app);
    const customer = await withSystem(t.database.db, user.organizationId, "test", async (ctx) => {
      const contactId = await findOrCreateContact(ctx, { name: "Ana Ruiz", email: "ana@example.com" });
      return (await startContactSession(ctx, contactId, "portal", 30 * 86_400_000)).token;
    });
    clockAhead(15);
    const reads = t.app.routeList.filter(
      (r) => r.method === "GET" && (r.access === "authenticated" || r.access === "admin") && !r.url.includes(":"),
    );
    expect(reads.length).toBeGreaterThan(10);
    for (const route of reads) {
      // The portal's routes are its customers'; they read their tickets while the organization is read-only too.
      const who = route.url.startsWith("/api/portal/") ? customer : token;
      const needs = NEEDS[route.url];
      const res = await t.app.inject({ method: "GET", url: route.url + (needs?.query ?? ""), headers: bearer(who) });
      expect(res.statusCode, `${route.url}: ${res.body.slice(0, 200)}`).toBe(needs?.status ?? 200);
      if (needs) expect(res.json().code).toBe(needs.code);
    }
  });

  it("answers a signed-out write 401, not READ_ONLY", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/tickets", payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
