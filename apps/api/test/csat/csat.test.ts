import type { CsatStatsAnswer, Satisfaction, SurveyAnswer } from "@cove/contract/csat.ts";
import type { CustomerTicketDetail } from "@cove/contract/portal.ts";
import type { ServerFrame } from "@cove/contract/realtime.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { csatSurveys } from "../../src/db/schema/csat.ts";
import { hashToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import {
  addMember,
  answered,
  client,
  createTicket,
  type Method,
  naughtySample,
  registerOrg,
  testAppWithMail,
  unique,
} from "../helpers.ts";
import { linkToken } from "../smtp.ts";
import { newIp, portalSignIn } from "../support/portal.ts";
import { connectRealtime } from "../support/realtime-client.ts";

const { t, smtp } = testAppWithMail();
let base: string;
beforeAll(async () => {
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

const call = client(() => t.app);
const anonymous = (method: Method, url: string, payload?: object) => t.app.inject({ method, url, payload });

async function newOrg() {
  const org = await registerOrg(t.app);
  const me = (await call(org.token, "GET", "/api/auth/me")).json() as { user: { organizationSlug: string } };
  return { ...org, slug: me.user.organizationSlug };
}

const staffTicket = (token: string, email: string, subject = "Broken lamp") =>
  createTicket(t.app, token, { subject, requester_email: email });

const setStatus = (token: string, id: string, status: string) => call(token, "PUT", `/api/tickets/${id}`, { status });
const surveyMails = (email: string) =>
  smtp.inbox.filter((m) => m.to.includes(email) && m.decoded.includes("/satisfaction?token="));
const stats = (token: string) => answered<CsatStatsAnswer>(call(token, "GET", "/api/csat/stats"), 200);

describe("the satisfaction survey", () => {
  it("opens when a ticket is solved and is emailed once per solve, by a durable handler", async () => {
    const org = await newOrg();
    const email = `ana-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email, "Refund <b>please</b>");
    await setStatus(org.token, ticket.id, "pending");
    await setStatus(org.token, ticket.id, "solved");
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(email) && m.decoded.includes("/satisfaction?token="));
    expect(mail?.decoded).toContain("How would you rate the support you received?");
    expect(mail?.decoded).toContain("Refund <b>please</b>");
    expect(mail?.decoded).not.toContain("Refund <b>please</b>\n</p>");
    expect(mail?.decoded).toContain("Refund &lt;b&gt;please&lt;/b&gt;");
    const token = linkToken(mail as NonNullable<typeof mail>, `/portal/${org.slug}/satisfaction`);
    const [row] = await t.database.db
      .select({ tokenHash: csatSurveys.tokenHash, agentId: csatSurveys.agentId })
      .from(csatSurveys)
      .where(eq(csatSurveys.ticketId, ticket.id));
    expect(row).toEqual({ tokenHash: hashToken(token), agentId: org.user.id });

    // Solved -> closed -> solved is the same solve: nothing new is sent.
    await setStatus(org.token, ticket.id, "closed");
    await setStatus(org.token, ticket.id, "solved");
    // Reopened and solved again while unanswered: asked again, with a new link (the old one stops working).
    await setStatus(org.token, ticket.id, "open");
    await setStatus(org.token, ticket.id, "solved");
    await smtp.waitFor(2, (m) => m.to.includes(email) && m.decoded.includes("/satisfaction?token="));
    await new Promise((r) => setTimeout(r, 1500));
    expect(surveyMails(email)).toHaveLength(2);
    expect((await anonymous("POST", "/api/portal/satisfaction/lookup", { token })).statusCode).toBe(404);
    const fresh = linkToken(surveyMails(email)[1] as NonNullable<typeof mail>, `/portal/${org.slug}/satisfaction`);
    const lookup = await anonymous("POST", "/api/portal/satisfaction/lookup", { token: fresh });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({
      organization: { slug: org.slug },
      ticket: { ticket_number: ticket.ticket_number, subject: "Refund <b>please</b>" },
      satisfaction: { rating: null, comment: null, can_change: true },
    } satisfies Partial<Record<keyof SurveyAnswer, unknown>>);

    // Answered, then reopened and solved again: the answer stands and nobody is asked twice.
    const rated = await anonymous("POST", "/api/portal/satisfaction", { token: fresh, rating: "good" });
    expect(rated.statusCode).toBe(200);
    expect(rated.json()).toMatchObject({ satisfaction: { rating: "good" }, message: "Thank you for your feedback!" });
    await setStatus(org.token, ticket.id, "open");
    await setStatus(org.token, ticket.id, "solved");
    await new Promise((r) => setTimeout(r, 1500));
    expect(surveyMails(email)).toHaveLength(2);
    expect(
      (await anonymous("POST", "/api/portal/satisfaction/lookup", { token: fresh })).json().satisfaction.rating,
    ).toBe("good");
  });

  it("is answered in the portal, changeable for 7 days, while the ticket stays solved; never another's", async () => {
    const org = await newOrg();
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const email = `bo-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email);
    const otherTicket = await staffTicket(org.token, `other-${unique()}@example.com`);
    const { token } = await portalSignIn(t, smtp, org.slug, email);
    const rate = (id: string, payload: object) => call(token, "PUT", `/api/portal/tickets/${id}/satisfaction`, payload);

    const early = await rate(ticket.id, { rating: "good" });
    expect(early.statusCode).toBe(404);
    expect(early.json().error).toBe("There is nothing to rate yet: a ticket can be rated once it is solved.");

    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: agent.id, status: "solved" });
    await call(org.token, "PUT", `/api/tickets/${otherTicket.id}`, { status: "solved" });
    const detail = (await call(token, "GET", `/api/portal/tickets/${ticket.id}`)).json().ticket as CustomerTicketDetail;
    expect(detail.satisfaction).toMatchObject({ rating: null, comment: null, can_change: true });
    const until = new Date(detail.satisfaction?.changeable_until ?? 0).getTime();
    expect(Math.abs(until - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    for (const bad of [
      { rating: "meh" },
      {},
      { rating: "good", comment: "x".repeat(2001) },
      { rating: "good", comment: 5 },
    ]) {
      expect((await rate(ticket.id, bad)).statusCode).toBe(400);
    }
    const first = await rate(ticket.id, { rating: "bad", comment: "  Took a week.  " });
    expect(first.statusCode).toBe(200);
    expect(first.json().satisfaction).toMatchObject({
      rating: "bad",
      comment: "Took a week.",
    } satisfies Partial<Satisfaction>);
    const changed = await rate(ticket.id, { rating: "good", comment: "" });
    expect(changed.json().satisfaction).toMatchObject({ rating: "good", comment: null });
    expect((await rate(otherTicket.id, { rating: "bad" })).statusCode).toBe(404);

    const s = await stats(org.token);
    expect(s.people).toEqual({ good: 1, bad: 0, score: 100 });
    expect(s.agents).toEqual([
      { agent_id: agent.id, first_name: "Priya", last_name: "Shah", good: 1, bad: 0, score: 100 },
    ]);

    await t.database.db
      .update(csatSurveys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(csatSurveys.ticketId, ticket.id));
    const late = await rate(ticket.id, { rating: "bad" });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatch(/for 7 days after a ticket is solved/);
    const shown = (await call(token, "GET", `/api/portal/tickets/${ticket.id}`)).json().ticket as CustomerTicketDetail;
    expect(shown.satisfaction).toMatchObject({ rating: "good", can_change: false });

    // A reopened ticket is not rated until it is solved again.
    await t.database.db
      .update(csatSurveys)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(csatSurveys.ticketId, ticket.id));
    await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, { body: "It broke again" });
    const reopened = await rate(ticket.id, { rating: "bad" });
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().error).toBe("This ticket was opened again: you can rate it once it is solved.");
    expect(
      ((await call(token, "GET", `/api/portal/tickets/${ticket.id}`)).json().ticket as CustomerTicketDetail)
        .satisfaction,
    ).toBeNull();
  });

  it("shows staff the customer's rating and comment on the ticket, as soon as it is given or changed", async () => {
    const org = await newOrg();
    const stranger = await newOrg();
    const email = `cy-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email);
    const read = async (token: string) => {
      const res = await call(token, "GET", `/api/tickets/${ticket.id}`);
      return { status: res.statusCode, ticket: res.json().ticket as Ticket | undefined, body: res.body };
    };
    expect((await read(org.token)).ticket?.rating).toBeNull();
    await setStatus(org.token, ticket.id, "solved");
    // Asked, not answered yet: nothing to show (and this answer is cached until something changes).
    expect((await read(org.token)).ticket?.rating).toBeNull();
    const { token } = await portalSignIn(t, smtp, org.slug, email);
    const rate = (payload: object) => call(token, "PUT", `/api/portal/tickets/${ticket.id}/satisfaction`, payload);
    expect((await rate({ rating: "bad", comment: "Took a week." })).statusCode).toBe(200);
    const rated = (await read(org.token)).ticket?.rating;
    expect(rated).toMatchObject({ rating: "bad", comment: "Took a week." });
    expect(Math.abs(new Date(rated?.rated_at ?? 0).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await rate({ rating: "good", comment: "" })).statusCode).toBe(200);
    expect((await read(org.token)).ticket?.rating).toMatchObject({ rating: "good", comment: null });
    // Another organization's staff find no such ticket, and so no rating.
    const theirs = await read(stranger.token);
    expect(theirs.status).toBe(404);
    expect(theirs.body).not.toContain("good");
  });

  it("scores the last 30 days on the dashboard: by people, by the AI (its live chats) and per agent; per organization", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const priya = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const answers: [string | null, "good" | "bad"][] = [
      [priya.id, "good"],
      [priya.id, "good"],
      [priya.id, "bad"],
      [null, "bad"],
    ];
    for (const [assignee, rating] of answers) {
      const email = `c-${unique()}@example.com`;
      const ticket = await staffTicket(org.token, email);
      if (assignee) await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: assignee });
      await setStatus(org.token, ticket.id, "solved");
      const { token } = await portalSignIn(t, smtp, org.slug, email);
      expect((await call(token, "PUT", `/api/portal/tickets/${ticket.id}/satisfaction`, { rating })).statusCode).toBe(
        200,
      );
    }
    // An answer older than 30 days no longer counts; a ticket solved but unanswered counts as sent.
    const old = await staffTicket(org.token, `old-${unique()}@example.com`);
    await setStatus(org.token, old.id, "solved");
    await t.database.db.execute(
      sql`update csat_surveys set rating = 'bad', answered_at = now() - interval '31 days', solved_at = now() - interval '31 days'
          where ticket_id = ${old.id}`,
    );
    await setStatus(org.token, (await staffTicket(org.token, `quiet-${unique()}@example.com`)).id, "solved");

    const s = await stats(org.token);
    expect(s).toMatchObject({
      period_days: 30,
      surveys_sent: 5,
      people: { good: 2, bad: 2, score: 50 },
      // The AI's half comes from live chats (chat/chat.test.ts); this organization has none.
      ai: { good: 0, bad: 0, score: null, available: true },
      overall: { good: 2, bad: 2, score: 50 },
    });
    expect(s.agents).toEqual([
      { agent_id: priya.id, first_name: "Priya", last_name: "Shah", good: 2, bad: 1, score: 67 },
      // Unassigned and solved by the admin: credited to whoever solved it.
      { agent_id: org.user.id, first_name: "Ada", last_name: "Lovelace", good: 0, bad: 1, score: 0 },
    ]);
    const theirs = await stats(other.token);
    expect(theirs).toMatchObject({ surveys_sent: 0, overall: { good: 0, bad: 0, score: null }, agents: [] });
    expect((await anonymous("GET", "/api/csat/stats")).statusCode).toBe(401);
  });

  it("announces an answer live to the organization's staff (the dashboard refreshes)", async () => {
    const org = await newOrg();
    const email = `d-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email);
    await setStatus(org.token, ticket.id, "solved");
    const { token } = await portalSignIn(t, smtp, org.slug, email);
    const staff = await connectRealtime(base);
    await staff.join(org.token, ["tickets"]);
    const customer = await connectRealtime(base);
    await customer.join(token, [`ticket:${ticket.id}`]);
    await call(token, "PUT", `/api/portal/tickets/${ticket.id}/satisfaction`, { rating: "good" });
    const isRated = (f: ServerFrame) => f.type === "event" && f.event.type === "csat.rated";
    const seen = await staff.next(isRated);
    expect(seen).toMatchObject({ topic: "tickets", event: { data: { ticket_id: ticket.id, rating: "good" } } });
    await customer.next(isRated);
    staff.close();
    customer.close();
  });

  it("keeps every naughty comment as typed, from the portal and the emailed link", { timeout: 180_000 }, async () => {
    const org = await newOrg();
    const email = `e-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email);
    await setStatus(org.token, ticket.id, "solved");
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(email) && m.decoded.includes("/satisfaction?token="));
    const token = linkToken(mail as NonNullable<typeof mail>, `/portal/${org.slug}/satisfaction`);
    const session = await portalSignIn(t, smtp, org.slug, email);
    let i = 0;
    for (const s of naughtySample()) {
      const viaLink = i++ % 2 === 0;
      const res = viaLink
        ? await t.app.inject({
            method: "POST",
            url: "/api/portal/satisfaction",
            payload: { token, rating: "bad", comment: s },
            // The link's page is limited per address; each string comes from an address of its own.
            remoteAddress: newIp(),
          })
        : await call(session.token, "PUT", `/api/portal/tickets/${ticket.id}/satisfaction`, {
            rating: "bad",
            comment: s,
          });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.json().satisfaction.comment, JSON.stringify(s)).toBe(s.trim() || null);
      else expect([res.statusCode, s.includes("\u0000")], JSON.stringify(s)).toEqual([400, true]);
    }
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from csat_surveys where ticket_id = ${ticket.id}`,
    );
    expect(row?.n).toBe(1);
  });
});
