import type { NotificationListAnswer } from "@cove/contract/notifications.ts";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactSessions, contacts } from "../../src/db/schema/contacts.ts";
import { ticketComments, tickets } from "../../src/db/schema/tickets.ts";
import { hashToken, newContactToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import { withoutTheRule } from "../../src/platform/sql-log.ts";
import { withContact } from "../../src/platform/tenancy.ts";
import {
  addMember,
  answered,
  client,
  errorAnswer,
  createTicket as newTicket,
  registerOrg,
  testAppForFile,
} from "../helpers.ts";

const t = testAppForFile();

const call = client(() => t.app);

const createTicket = (token: string, subject = "Refund for a broken lamp") => newTicket(t.app, token, { subject });

const bell = (token: string) => answered<NotificationListAnswer>(call(token, "GET", "/api/notifications"), 200);

describe("the notification bell", () => {
  it("tells a member a ticket was assigned to them, by whom, with a link; not when they assign themselves", async () => {
    const org = await registerOrg(t.app, { firstName: "Ada", lastName: "Okoro" });
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const ticket = await createTicket(org.token);
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: agent.id });
    const { notifications, unread_count } = await bell(agent.token);
    expect(unread_count).toBe(1);
    expect(notifications[0]).toMatchObject({
      type: "assigned",
      actor_name: "Ada Okoro",
      title: `#${ticket.ticket_number} Refund for a broken lamp`,
      link: `/tickets/${ticket.id}`,
      read: false,
    });
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: org.user.id });
    expect((await bell(org.token)).unread_count).toBe(0);
  });

  it("tells the assignee of a reply or note by someone else, and a member mentioned as @First Last", async () => {
    const org = await registerOrg(t.app, { firstName: "Ada", lastName: "Okoro" });
    const priya = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const marco = await addMember(t.database, org.user.organizationId, { firstName: "Marco", lastName: "Alvarez" });
    const ticket = await createTicket(org.token);
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: priya.id });
    await call(priya.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Own reply", is_public: true });
    expect((await bell(priya.token)).unread_count).toBe(1); // only the assignment
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, {
      body: "@marco alvarez can you check stock? @Priya Shahx is not a name",
      is_public: false,
    });
    const p = await bell(priya.token);
    expect(p.notifications[0]).toMatchObject({ type: "reply", actor_name: "Ada Okoro", excerpt: expect.any(String) });
    const m = await bell(marco.token);
    expect(m.notifications.map((n) => n.type)).toEqual(["mention"]);
    // A public reply does not mention anyone.
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "@Marco Alvarez", is_public: true });
    expect((await bell(marco.token)).unread_count).toBe(1);
  });

  it("marks one or all read, and another member's or organization's notification is not found", async () => {
    const a = await registerOrg(t.app);
    const agent = await addMember(t.database, a.user.organizationId);
    const b = await registerOrg(t.app);
    for (const subject of ["One", "Two", "Three"]) {
      const ticket = await createTicket(a.token, subject);
      await call(a.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: agent.id });
    }
    const list = await bell(agent.token);
    expect(list.unread_count).toBe(3);
    const first = list.notifications[0];
    if (!first) throw new Error("no notification");
    for (const stranger of [a.token, b.token]) {
      const res = await call(stranger, "POST", `/api/notifications/${first.id}/read`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorAnswer("Notification not found", "NOT_FOUND"));
    }
    expect((await bell(b.token)).notifications).toEqual([]);
    expect((await call(agent.token, "POST", "/api/notifications/nonsense/read")).statusCode).toBe(404);
    const one = await call(agent.token, "POST", `/api/notifications/${first.id}/read`);
    expect(one.json()).toEqual({ unread_count: 2 });
    expect((await call(agent.token, "POST", `/api/notifications/${first.id}/read`)).statusCode).toBe(200);
    expect((await call(agent.token, "POST", "/api/notifications/read-all")).json()).toEqual({ unread_count: 0 });
    expect((await bell(agent.token)).notifications.every((n) => n.read)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/api/notifications" })).statusCode).toBe(401);
  });
});

describe("a contact's transactions", () => {
  it("see only the contact's own tickets and their public comments, even with no filter of their own", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const mine = await createTicket(org.token, "Mine");
    const someoneElses = await createTicket(org.token, "Someone else's");
    await createTicket(other.token, "Another organization's");
    await call(org.token, "POST", `/api/tickets/${mine.id}/comments`, { body: "Public answer", is_public: true });
    await call(org.token, "POST", `/api/tickets/${mine.id}/comments`, { body: "Internal note", is_public: false });
    await call(org.token, "POST", `/api/tickets/${someoneElses.id}/comments`, { body: "Theirs", is_public: true });
    const orgId = org.user.organizationId;
    const [contact] = await t.database.db
      .insert(contacts)
      .values({ organizationId: orgId, name: "Ana Ruiz", email: `ana-${mine.id}@example.com` })
      .returning({ id: contacts.id });
    if (!contact) throw new Error("no contact");
    await t.database.db.execute(sql`update tickets set contact_id = ${contact.id} where id = ${mine.id}`);
    const token = newContactToken();
    const [session] = await t.database.db
      .insert(contactSessions)
      .values({
        organizationId: orgId,
        contactId: contact.id,
        kind: "portal",
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returning({ id: contactSessions.id });
    if (!session) throw new Error("no session");
    const who = { kind: "contact" as const, orgId, contactId: contact.id, sessionId: session.id };
    const seen = await withContact(t.database.db, who, (ctx) =>
      withoutTheRule(async () => ({
        tickets: await ctx.db.select({ subject: tickets.subject }).from(tickets),
        comments: await ctx.db.select({ body: ticketComments.body }).from(ticketComments),
      })),
    );
    expect(seen.tickets.map((r) => r.subject)).toEqual(["Mine"]);
    expect(seen.comments.map((r) => r.body)).toEqual(["Public answer"]);
    // Tables a contact has no business with are not readable at all.
    const denied = await withContact(t.database.db, who, (ctx) =>
      withoutTheRule(() => queryRows(ctx.db, sql`select email from users`)),
    ).then(
      () => null,
      (err: Error & { cause?: Error }) => err.cause?.message ?? err.message,
    );
    expect(denied).toMatch(/permission denied/);
    // A session that ended refuses the transaction.
    await t.database.db.execute(sql`delete from contact_sessions where id = ${session.id}`);
    await expect(withContact(t.database.db, who, async () => "ran")).rejects.toThrow(/session has ended/);
  });
});
