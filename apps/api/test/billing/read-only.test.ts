import { REPORT_SECTIONS } from "@cove/contract/reports.ts";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DeclaredRoute } from "../../src/app.ts";
import { csatSurveys } from "../../src/db/schema/csat.ts";
import { portalSignInLinks } from "../../src/db/schema/portal.ts";
import { PUBLIC_READ_ONLY } from "../../src/modules/billing/access.ts";
import { findOrCreateContact, startContactSession } from "../../src/modules/contacts/contacts.service.ts";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { hashToken, newToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import { addMember, bearer, createTicket, errorAnswer, registerOrg, testAppForFile } from "../helpers.ts";
import { clockAhead } from "../support/billing.ts";
import { addArticle } from "../support/kb-fixtures.ts";
import { newIp } from "../support/portal.ts";

const t = testAppForFile();
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
  // One's own sign-in security: two-factor sign-in and signing out one's sessions (issue 32).
  "POST /api/auth/2fa/setup",
  "POST /api/auth/2fa/enable",
  "POST /api/auth/2fa/recovery-codes",
  "POST /api/auth/2fa/disable",
  "DELETE /api/auth/sessions",
  "DELETE /api/auth/sessions/:id",
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
  // A customer's rights to their data (GDPR articles 15, 17 and 20) do not lapse with the organization's plan.
  "POST /api/contacts/:id/export",
  "POST /api/contacts/:id/erase",
];

/**
 * Reads that need more than a signed-in caller: what they answer an expired trial, which is their own answer and not
 * READ_ONLY. A plan-change preview is about a subscription, which a trial has not.
 */
const REPORT_RANGE = { query: "?from=2026-11-01&to=2026-11-29", status: 200 };
const NEEDS: Record<string, { query: string; status: number; code?: string }> = {
  "/api/billing/change-plan/preview": { query: "?plan=business", status: 409, code: "CONFLICT" },
  // Reports need their range of days.
  "/api/reports": REPORT_RANGE,
  "/api/reports/tickets.csv": REPORT_RANGE,
  ...Object.fromEntries(REPORT_SECTIONS.map((s) => [`/api/reports/${s}.csv`, REPORT_RANGE])),
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
        // So does a customer's route to any member (customers' own writes are checked below).
        if (route.actors.includes("contact")) {
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
      if (needs?.code) expect(res.json().code).toBe(needs.code);
    }
  });

  it("answers a signed-out write 401, not READ_ONLY", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/tickets", payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

/**
 * The public writes that name no organization's data of their own: signing up and in as staff (a read-only
 * organization's members still sign in), the payment provider's webhook, the demo's own portal, reading a survey.
 */
const PUBLIC_EXEMPT = [
  "POST /api/auth/register",
  "POST /api/auth/login",
  // The second step of a sign-in (a code for the login's challenge).
  "POST /api/auth/login/2fa",
  "POST /api/auth/invite-details",
  "POST /api/auth/accept-invite",
  "POST /api/auth/forgot-password",
  "POST /api/auth/reset-password",
  // Says whether a reset link still works; writes nothing.
  "POST /api/auth/reset-password/check",
  "POST /api/billing/webhook",
  "POST /api/portal/demo-session",
  "POST /api/portal/satisfaction/lookup",
];

const mail = (subject: string, text: string) =>
  Buffer.from(
    [
      "From: Ana Ruiz <ana@example.com>",
      "To: support@example.com",
      `Subject: ${subject}`,
      `Message-ID: <${newToken()}@example.com>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      text,
      "",
    ].join("\r\n"),
  );

describe("read-only mode on the public channels", () => {
  it("has every public write name the organization it writes to, or listed here as writing none", () => {
    const publicWrites = t.app.routeList.filter((r) => WRITE.has(r.method) && r.access === "public");
    const exempt = publicWrites.filter((r) => !r.writesTo).map((r) => `${r.method} ${r.url}`);
    expect(exempt.sort()).toEqual([...PUBLIC_EXEMPT].sort());
  });

  it("documents the 402 of every public write that names its organization, in the route and in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const writes = t.app.routeList.filter((r) => WRITE.has(r.method) && r.access === "public" && r.writesTo);
    expect(writes.length).toBeGreaterThan(3);
    for (const r of writes) {
      const path = r.url.replace(/:(\w+)/g, "{$1}");
      const responses = doc.paths[path]?.[r.method.toLowerCase()]?.responses;
      expect(responses, `${r.method} ${r.url} in the document`).toBeDefined();
      expect(Object.keys(responses ?? {}), `${r.method} ${r.url}`).toContain("402");
    }
  });

  it("refuses a chat, a vote, a portal sign-in, a survey answer by link and the assistant console with 402 READ_ONLY", async () => {
    const { token, user } = await registerOrg(t.app);
    const orgId = user.organizationId;
    const [{ slug } = { slug: "" }] = await queryRows<{ slug: string }>(
      t.database.db,
      sql`select slug from organizations where id = ${orgId}`,
    );
    const article = await addArticle(t, orgId, { title: "Returns", body: "Returns are free within 30 days." });
    // Before the trial ends: a question asked in the console, a solved ticket with its survey, a sign-in link.
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-response",
      headers: bearer(token),
      payload: { message: "Are returns free?" },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const answerId = asked.json().answerId as string;
    expect(answerId).toBeTruthy();
    const ticketId = (await createTicket(t.app, token)).id;
    const solved = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: bearer(token),
      payload: { status: "solved" },
    });
    expect(solved.statusCode, solved.body).toBe(200);
    const surveyToken = newToken();
    const surveys = await t.database.db
      .update(csatSurveys)
      .set({ tokenHash: hashToken(surveyToken) })
      .where(and(eq(csatSurveys.organizationId, orgId), eq(csatSurveys.ticketId, ticketId)))
      .returning({ id: csatSurveys.id });
    expect(surveys).toHaveLength(1);
    const linkToken = newToken();
    await t.database.db.insert(portalSignInLinks).values({
      organizationId: orgId,
      email: "new.customer@example.com",
      tokenHash: hashToken(linkToken),
      ip: "10.0.0.1",
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });

    clockAhead(15);
    const refusals = [
      { method: "POST", url: `/api/public/${slug}/chat/sessions`, payload: { name: "Ana" } },
      { method: "POST", url: `/api/public/${slug}/kb/articles/${article.slug}/feedback`, payload: { helpful: true } },
      { method: "POST", url: `/api/public/${slug}/portal/sign-in-link`, payload: { email: "ana@example.com" } },
      { method: "POST", url: `/api/public/${slug}/portal/session`, payload: { token: linkToken } },
      { method: "POST", url: "/api/portal/satisfaction", payload: { token: surveyToken, rating: "good" } },
      { method: "POST", url: "/api/chat/ai-response", payload: { message: "Are returns free?" }, staff: true },
      { method: "POST", url: "/api/chat/ai-feedback", payload: { answerId, helpful: false }, staff: true },
    ] as const;
    for (const r of refusals) {
      const res = await t.app.inject({
        method: r.method,
        url: r.url,
        payload: r.payload,
        remoteAddress: newIp(),
        headers: "staff" in r ? bearer(token) : {},
      });
      expect(res.statusCode, `${r.url}: ${res.body}`).toBe(402);
      expect(res.json()).toEqual(errorAnswer(PUBLIC_READ_ONLY, "READ_ONLY"));
    }
    // Nothing was written: no chat, no contact for the new address, the vote and the answer not counted.
    const [written] = await queryRows<{ chats: number; contacts: number; helpful: number; rated: number }>(
      t.database.db,
      sql`select (select count(*) from chat_sessions where organization_id = ${orgId})::int as chats,
                 (select count(*) from contacts where organization_id = ${orgId}
                   and email = 'new.customer@example.com')::int as contacts,
                 (select count(*) from csat_surveys where organization_id = ${orgId} and rating is not null)::int as rated,
                 (select helpful_count from kb_articles where id = ${article.id})::int as helpful`,
    );
    expect(written).toEqual({ chats: 0, contacts: 0, helpful: 0, rated: 0 });
    const link = await t.database.db
      .select({ usedAt: portalSignInLinks.usedAt })
      .from(portalSignInLinks)
      .where(eq(portalSignInLinks.tokenHash, hashToken(linkToken)));
    expect(link).toEqual([{ usedAt: null }]);
  });

  it("keeps an emailed reply to an existing ticket unfiled, with the reason, instead of adding it", async () => {
    const { token, user } = await registerOrg(t.app);
    const orgId = user.organizationId;
    const first = await receiveMail(t.database.db, orgId, {
      raw: mail("Broken lamp", "The lamp arrived broken."),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    expect(first.result).toBe("ticket");
    const ticketId = first.result === "ticket" ? first.ticketId : "";
    const number = (
      await t.app.inject({ method: "GET", url: `/api/tickets/${ticketId}`, headers: bearer(token) })
    ).json().ticket.ticket_number as number;

    clockAhead(15);
    const reply = await receiveMail(t.database.db, orgId, {
      raw: mail(`Re: [#${number}] Broken lamp`, "Any news? The switch is broken too."),
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    expect(reply).toEqual({ result: "rejected", reason: expect.stringMatching(/read-only/) });
    const comments = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ticket_comments where ticket_id = ${ticketId}`,
    );
    expect(comments).toEqual([{ n: 0 }]);
    const unfiled = await t.app.inject({ method: "GET", url: "/api/email/unfiled", headers: bearer(token) });
    expect(unfiled.statusCode, unfiled.body).toBe(200);
    const kept = unfiled.json().messages as { subject: string; reason: string }[];
    expect(kept).toEqual([
      expect.objectContaining({ subject: `Re: [#${number}] Broken lamp`, reason: expect.stringMatching(/read-only/) }),
    ]);
  });
});
