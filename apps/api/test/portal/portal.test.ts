import type { NotificationListAnswer } from "@cove/contract/notifications.ts";
import {
  type CustomerTicketDetail,
  type CustomerTicketListAnswer,
  PORTAL_LINKS_PER_ADDRESS,
  PORTAL_LINKS_PER_EMAIL,
  portalLinkMessage,
} from "@cove/contract/portal.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { portalSignInLinks } from "../../src/db/schema/portal.ts";
import { hashToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import { addMember, client, errorAnswer, type Method, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import { askForLink, mailedLinkToken, newIp, portalSignIn, redeem } from "../support/portal.ts";

const { t, smtp } = testAppWithMail();

const call = client(() => t.app);

async function staffTicket(
  token: string,
  requester_email: string,
  subject = "Broken lamp",
  requester_name = "Ana Ruiz",
) {
  const res = await call(token, "POST", "/api/tickets", {
    subject,
    description: "It arrived in pieces.",
    requester_name,
    requester_email,
  });
  expect(res.statusCode).toBe(201);
  return res.json().ticket as Ticket;
}

const slugOf = async (token: string) =>
  ((await call(token, "GET", "/api/auth/me")).json() as { user: { organizationSlug: string } }).user.organizationSlug;

async function newOrg() {
  const org = await registerOrg(t.app);
  return { ...org, slug: await slugOf(org.token) };
}

const myTickets = async (token: string) => {
  const res = await call(token, "GET", "/api/portal/tickets");
  expect(res.statusCode).toBe(200);
  return res.json() as CustomerTicketListAnswer;
};

describe("signing in to the portal with an emailed link", () => {
  it("gives the same answer for a known and an unknown email, and each link signs its email in once", async () => {
    const org = await newOrg();
    const known = `ana-${unique()}@example.com`;
    const stranger = `bo-${unique()}@example.com`;
    await staffTicket(org.token, known);

    const a = await askForLink(t, org.slug, known.toUpperCase());
    const b = await askForLink(t, org.slug, stranger);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual({ message: portalLinkMessage(known) });
    expect(b.json()).toEqual({ message: portalLinkMessage(stranger) });

    const token = await mailedLinkToken(smtp, org.slug, known);
    const mail = (await smtp.waitFor(1, (m) => m.to.includes(known)))[0];
    expect(mail?.decoded).toContain("expires in 15 minutes");
    // 256 random bits, stored only as a hash.
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const stored = await queryRows<{ token_hash: string }>(
      t.database.db,
      sql`select token_hash from portal_sign_in_links where email = ${known}`,
    );
    expect(stored.map((r) => r.token_hash)).toEqual([hashToken(token)]);

    const first = await redeem(t, org.slug, token);
    expect(first.statusCode).toBe(200);
    const session = first.json();
    expect(session.token).toMatch(/^ct\./);
    expect(session.customer).toMatchObject({ name: "Ana Ruiz", email: known, company: null });
    expect(session.organization).toMatchObject({ slug: org.slug, branding: { logo_url: null, color: "#4f46e5" } });
    // Single use.
    const again = await redeem(t, org.slug, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: "INVALID_TOKEN", error: expect.stringMatching(/invalid, has expired/) });

    // The stranger's link makes them a contact on first use, named by their email until they say otherwise.
    const theirs = await redeem(t, org.slug, await mailedLinkToken(smtp, org.slug, stranger));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().customer).toMatchObject({ name: stranger, email: stranger });
    const me = await call(theirs.json().token, "PUT", "/api/portal/me", { name: "Bo Chen", company: "Chen & Co" });
    expect(me.json().customer).toMatchObject({ name: "Bo Chen", company: "Chen & Co", email: stranger });
  });

  it("refuses an expired link, another organization's link, a made-up one and an unknown portal alike", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const email = `cy-${unique()}@example.com`;
    await askForLink(t, org.slug, email);
    const token = await mailedLinkToken(smtp, org.slug, email);
    expect((await redeem(t, other.slug, token)).statusCode).toBe(400);
    await t.database.db
      .update(portalSignInLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(portalSignInLinks.tokenHash, hashToken(token)));
    const expired = await redeem(t, org.slug, token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe("INVALID_TOKEN");
    expect((await redeem(t, org.slug, "x".repeat(43))).statusCode).toBe(400);
    expect((await redeem(t, org.slug, "short")).statusCode).toBe(400);
    for (const slug of ["no-such-org", "under_score", "ACME"]) {
      const res = await askForLink(t, slug, email);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorAnswer("Portal not found", "NOT_FOUND"));
    }
    expect((await askForLink(t, org.slug, "not an email")).statusCode).toBe(400);
    const info = await t.app.inject({ method: "GET", url: `/api/public/${org.slug}/portal` });
    expect(info.json()).toEqual({
      organization: { name: expect.any(String), slug: org.slug, branding: { logo_url: null, color: "#4f46e5" } },
    });
  });

  it("throttles links per email and per address, whether or not the email is known, even in a burst", async () => {
    const org = await newOrg();
    const known = `di-${unique()}@example.com`;
    await staffTicket(org.token, known);
    const ip = newIp();
    const burst = await Promise.all(
      Array.from({ length: PORTAL_LINKS_PER_EMAIL + 3 }, () => askForLink(t, org.slug, known, ip)),
    );
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(PORTAL_LINKS_PER_EMAIL);
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json()).toEqual(
      errorAnswer("Too many sign-in links were asked for. Please wait 15 minutes and try again.", "RATE_LIMITED"),
    );
    // Another address still may not flood that email.
    expect((await askForLink(t, org.slug, known)).statusCode).toBe(429);
    // One address asking for many emails (known or not) is stopped too.
    const spray = newIp();
    for (let i = 0; i < PORTAL_LINKS_PER_ADDRESS; i++) {
      expect((await askForLink(t, org.slug, `spray-${i}-${unique()}@example.com`, spray)).statusCode).toBe(200);
    }
    expect((await askForLink(t, org.slug, `one-more-${unique()}@example.com`, spray)).statusCode).toBe(429);
    await smtp.waitFor(PORTAL_LINKS_PER_EMAIL, (m) => m.to.includes(known));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.inbox.filter((m) => m.to.includes(known))).toHaveLength(PORTAL_LINKS_PER_EMAIL);
  });

  it("keeps the customer's session apart from staff: each is refused where the other belongs, and signing out ends it", async () => {
    const org = await newOrg();
    const email = `el-${unique()}@example.com`;
    const { token } = await portalSignIn(t, smtp, org.slug, email);
    for (const url of [
      "/api/tickets",
      "/api/users",
      "/api/contacts",
      "/api/csat/stats",
      "/api/auth/me",
      "/api/notifications",
    ]) {
      const res = await call(token, "GET", url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code, url).toBe("FORBIDDEN");
    }
    const staffOnPortal = await call(org.token, "GET", "/api/portal/tickets");
    expect(staffOnPortal.statusCode).toBe(403);
    expect(staffOnPortal.json().error).toBe(
      "This is only for customers signed in to the portal or chatting with the team.",
    );
    // Signing out of the portal is a customer's route too: a staff token is refused the same way, and stays signed in.
    const staffSignOut = await call(org.token, "POST", "/api/portal/sign-out");
    expect([staffSignOut.statusCode, staffSignOut.json()]).toEqual([
      403,
      { ...staffOnPortal.json(), requestId: staffSignOut.headers["x-request-id"] },
    ]);
    expect((await call(org.token, "GET", "/api/auth/me")).statusCode).toBe(200);
    expect((await call(token, "POST", "/api/portal/sign-out")).statusCode).toBe(200);
    const after = await call(token, "GET", "/api/portal/me");
    expect(after.statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/portal/tickets" })).statusCode).toBe(401);
  });
});

describe("a customer's tickets in the portal", () => {
  it("lists their own tickets with public replies counted, and never another customer's or organization's", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const email = `fa-${unique()}@example.com`;
    const one = await staffTicket(org.token, email, "First");
    const two = await staffTicket(org.token, email.toUpperCase(), "Second");
    const theirs = await staffTicket(org.token, `someone-${unique()}@example.com`, "Someone else's");
    const foreign = await staffTicket(other.token, email, "Other organization");
    await call(org.token, "POST", `/api/tickets/${one.id}/comments`, { body: "We are on it", is_public: true });
    await call(org.token, "POST", `/api/tickets/${one.id}/comments`, { body: "Secret note", is_public: false });
    const { token } = await portalSignIn(t, smtp, org.slug, email);

    const list = await myTickets(token);
    expect(list.pagination.total).toBe(2);
    expect(list.tickets.map((x) => x.subject).sort()).toEqual(["First", "Second"]);
    const first = list.tickets.find((x) => x.id === one.id);
    expect(first && Object.keys(first).sort()).toEqual([
      "comment_count",
      "created_at",
      "description",
      "id",
      "priority",
      "status",
      "subject",
      "ticket_number",
      "updated_at",
    ]);
    expect(first?.comment_count).toBe(1);
    expect(list.tickets.find((x) => x.id === two.id)?.comment_count).toBe(0);

    const detail = await call(token, "GET", `/api/portal/tickets/${one.id}`);
    const ticket = detail.json().ticket as CustomerTicketDetail;
    expect(ticket.comments).toEqual([
      {
        id: expect.any(String),
        body: "We are on it",
        author_name: "Ada Lovelace",
        from_customer: false,
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(detail.json())).not.toMatch(/Secret note|assignee|author_email|requester_email/);
    expect(ticket.satisfaction).toBeNull();

    for (const id of [theirs.id, foreign.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000"]) {
      for (const [method, url, payload] of [
        ["GET", `/api/portal/tickets/${id}`],
        ["POST", `/api/portal/tickets/${id}/comments`, { body: "Let me in" }],
        ["PUT", `/api/portal/tickets/${id}/satisfaction`, { rating: "bad" }],
      ] as [Method, string, object?][]) {
        const res = await call(token, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    // Nothing was added to the tickets they could not reach.
    const untouched = (await call(org.token, "GET", `/api/tickets/${theirs.id}`)).json().ticket as Ticket;
    expect(untouched.comments).toEqual([]);
  });

  it("submits a ticket: open, from the portal, with the customer as requester; subject and description required", async () => {
    const org = await newOrg();
    const email = `gu-${unique()}@example.com`;
    await staffTicket(org.token, email, "Earlier", "Gus Meyer");
    const { token, customer } = await portalSignIn(t, smtp, org.slug, email);
    for (const [payload, message] of [
      [{ description: "x" }, "Subject is required"],
      [{ subject: "  ", description: "x" }, "Subject is required"],
      [{ subject: "Hi" }, "Description is required"],
      [{ subject: "Hi", description: "x", priority: "asap" }, "Priority must be one of low, normal, high, urgent"],
    ] as [object, string][]) {
      const res = await call(token, "POST", "/api/portal/tickets", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(res.json().details)).toContain(message);
    }
    const created = await call(token, "POST", "/api/portal/tickets", {
      subject: "  Tent zipper broke  ",
      description: "On the second night.",
      priority: "high",
    });
    expect(created.statusCode).toBe(201);
    const mine = created.json().ticket as CustomerTicketDetail;
    expect(mine).toMatchObject({ subject: "Tent zipper broke", status: "open", priority: "high", comment_count: 0 });
    const staffView = (await call(org.token, "GET", `/api/tickets/${mine.id}`)).json().ticket as Ticket;
    expect(staffView).toMatchObject({
      source: "portal",
      status: "open",
      requester_name: "Gus Meyer",
      requester_email: email,
      assignee_id: null,
    });
    expect(staffView.activity).toEqual([expect.objectContaining({ type: "created", actor_name: "Gus Meyer" })]);
    const [row] = await queryRows<{ contact_id: string }>(
      t.database.db,
      sql`select contact_id from tickets where id = ${mine.id}`,
    );
    expect(row?.contact_id).toBe(customer.id);
    expect((await myTickets(token)).pagination.total).toBe(2);
    // Staff lists count it at once.
    const stats = (await call(org.token, "GET", "/api/tickets/stats/overview")).json();
    expect(stats.open_tickets).toBe(2);
  });

  it("replies: the assignee is notified, a solved or pending ticket opens again, a closed one is final", async () => {
    const org = await newOrg();
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const email = `ha-${unique()}@example.com`;
    const ticket = await staffTicket(org.token, email, "Wrong colour", "Hana Sato");
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: agent.id, status: "solved" });
    const { token } = await portalSignIn(t, smtp, org.slug, email);

    const reply = await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, {
      body: "  Still blue, sorry!  ",
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().comment).toMatchObject({
      body: "Still blue, sorry!",
      author_name: "Hana Sato",
      from_customer: true,
    });
    const staffView = (await call(org.token, "GET", `/api/tickets/${ticket.id}`)).json().ticket as Ticket;
    expect(staffView.status).toBe("open");
    expect(staffView.comments.at(-1)).toMatchObject({
      body: "Still blue, sorry!",
      is_public: true,
      author_name: "Hana Sato",
    });
    expect(staffView.activity.at(-1)).toMatchObject({
      type: "status",
      actor_name: "Hana Sato",
      from_value: "solved",
      to_value: "open",
    });
    const bell = (await call(agent.token, "GET", "/api/notifications")).json() as NotificationListAnswer;
    expect(bell.notifications[0]).toMatchObject({
      type: "reply",
      actor_name: "Hana Sato",
      excerpt: "Still blue, sorry!",
    });

    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "pending" });
    await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, { body: "Here are the photos." });
    expect(((await call(org.token, "GET", `/api/tickets/${ticket.id}`)).json().ticket as Ticket).status).toBe("open");

    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "closed" });
    const late = await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, { body: "One more thing" });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe("CONFLICT");
    expect((await call(token, "POST", `/api/portal/tickets/${ticket.id}/comments`, { body: "   " })).statusCode).toBe(
      400,
    );
    const detail = (await call(token, "GET", `/api/portal/tickets/${ticket.id}`)).json().ticket as CustomerTicketDetail;
    expect(detail.comments.map((c) => c.body)).toEqual(["Still blue, sorry!", "Here are the photos."]);
    expect(detail.comment_count).toBe(2);
  });
});
