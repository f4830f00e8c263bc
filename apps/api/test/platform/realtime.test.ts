import { CLOSE, REALTIME_LIMITS, type ServerFrame } from "@cove/contract/realtime.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactSessions, contacts } from "../../src/db/schema/contacts.ts";
import { tickets } from "../../src/db/schema/tickets.ts";
import { hashToken, newContactToken } from "../../src/platform/auth.ts";
import { addMember, bearer, createTestApp, createTicket, registerOrg, type TestApp } from "../helpers.ts";
import { connectRealtime, type RealtimeClient } from "../support/realtime-client.ts";

let t: TestApp;
let base: string;
const open: RealtimeClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const c of open) c.close();
  await t.close();
});

async function client(): Promise<RealtimeClient> {
  const c = await connectRealtime(base);
  open.push(c);
  return c;
}

const where = { subject: "Where is my order?" };

const update = (token: string, id: string, payload: object) =>
  t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: bearer(token), payload });

const isEvent = (type: string, ticketId?: string) => (f: ServerFrame) =>
  f.type === "event" && f.event.type === type && (!ticketId || f.event.data.ticket_id === ticketId);

/** Gives a ticket a requester contact with a session of their own, as the portal will. */
async function contactFor(orgId: string, ticketId: string) {
  const [contact] = await t.database.db
    .insert(contacts)
    .values({ organizationId: orgId, name: "Sam Lee", email: `sam-${ticketId}@example.com` })
    .returning({ id: contacts.id });
  if (!contact) throw new Error("no contact");
  const { eq } = await import("drizzle-orm");
  await t.database.db.update(tickets).set({ contactId: contact.id }).where(eq(tickets.id, ticketId));
  const token = newContactToken();
  await t.database.db.insert(contactSessions).values({
    organizationId: orgId,
    contactId: contact.id,
    kind: "portal",
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { id: contact.id, token };
}

describe("signing in on the socket", () => {
  it("refuses frames before the auth frame, and closes on a bad token", async () => {
    const c = await client();
    c.send({ type: "subscribe", topic: "tickets" });
    await c.next((f) => f.type === "error" && f.code === "NOT_AUTHENTICATED");
    c.send({ type: "auth", token: "x".repeat(43) });
    expect((await c.closed).code).toBe(CLOSE.unauthorized);
  });

  it("answers malformed frames and unknown topics with an error frame and stays open", async () => {
    const org = await registerOrg(t.app);
    const c = await client();
    await c.join(org.token);
    c.send("not json");
    await c.next((f) => f.type === "error" && f.code === "BAD_FRAME");
    c.send({ type: "subscribe" });
    await c.next((f) => f.type === "error" && f.code === "BAD_FRAME" && f !== c.frames.find((x) => x.type === "error"));
    c.send({ type: "subscribe", topic: "everything" });
    await c.next((f) => f.type === "error" && f.code === "UNKNOWN_TOPIC");
    c.send({ type: "subscribe", topic: "ticket:" });
    await c.next((f) => f.type === "error" && f.code === "NOT_FOUND" && f.topic === "ticket:");
    c.send({ type: "ping" });
    await c.next((f) => f.type === "pong");
  });

  it("closes a socket that sends an oversized frame, or floods", async () => {
    const org = await registerOrg(t.app);
    const big = await client();
    await big.join(org.token);
    big.send({ type: "subscribe", topic: "x".repeat(REALTIME_LIMITS.maxFrameBytes) });
    expect((await big.closed).code).toBe(CLOSE.tooBig);

    const flood = await client();
    await flood.join(org.token);
    for (let i = 0; i < REALTIME_LIMITS.framesPerSecond * 3; i++) flood.send({ type: "ping" });
    expect((await flood.closed).code).toBe(CLOSE.policy);
  });
});

describe("subscriptions", () => {
  it("delivers the organization's ticket events to the tickets topic, and none of another organization's", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const c = await client();
    await c.join(a.token, ["tickets"]);
    const theirs = await createTicket(t.app, b, where);
    const mine = await createTicket(t.app, a, where);
    const frame = await c.next(isEvent("ticket.created", mine.id));
    expect(frame).toMatchObject({ topic: "tickets" });
    // Only ids and small patches: no subject, no requester.
    expect(JSON.stringify(frame)).not.toContain(where.subject);
    expect(c.frames.some(isEvent("ticket.created", theirs.id))).toBe(false);
  });

  it("answers not found for another organization's ticket and sends nothing of it", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const theirs = await createTicket(t.app, b, where);
    const c = await client();
    await c.join(a.token, [`ticket:${theirs.id}`]);
    expect(c.frames).toContainEqual(expect.objectContaining({ type: "error", code: "NOT_FOUND" }));
    await update(b.token, theirs.id, { status: "pending" });
    const control = await createTicket(t.app, a, where);
    c.send({ type: "subscribe", topic: `ticket:${control.id}` });
    await c.next((f) => f.type === "subscribed" && f.topic === `ticket:${control.id}`);
    await update(a.token, control.id, { status: "pending" });
    await c.next(isEvent("ticket.updated", control.id));
    expect(c.frames.some((f) => f.type === "event" && f.event.data.ticket_id === theirs.id)).toBe(false);
  });

  it("sends a member their own notifications only", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const other = await addMember(t.database, org.user.organizationId);
    const agentSocket = await client();
    await agentSocket.join(agent.token, ["notifications"]);
    const otherSocket = await client();
    await otherSocket.join(other.token, ["notifications"]);
    const ticket = await createTicket(t.app, org, where);
    await update(org.token, ticket.id, { assignee_id: agent.id });
    await agentSocket.next(isEvent("notification.created"));
    await new Promise((r) => setTimeout(r, 300));
    expect(otherSocket.frames.some(isEvent("notification.created"))).toBe(false);
  });

  it("gives a contact their own ticket's public replies and status, never internal notes or assignments", async () => {
    const org = await registerOrg(t.app);
    const ticket = await createTicket(t.app, org, where);
    const other = await createTicket(t.app, org, where);
    const contact = await contactFor(org.user.organizationId, ticket.id);
    const c = await client();
    await c.join(contact.token, [`ticket:${ticket.id}`, `ticket:${other.id}`, "tickets", "notifications"]);
    expect(c.frames.filter((f) => f.type === "subscribed").map((f) => f.type === "subscribed" && f.topic)).toEqual([
      `ticket:${ticket.id}`,
    ]);
    const comment = (is_public: boolean, body: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/tickets/${ticket.id}/comments`,
        headers: bearer(org.token),
        payload: { body, is_public },
      });
    await comment(false, "internal: refund approved?");
    await update(org.token, ticket.id, { assignee_id: org.user.id });
    await comment(true, "We are on it");
    await update(org.token, ticket.id, { status: "solved" });
    await c.next(isEvent("ticket.status_changed", ticket.id));
    const seen = c.frames.filter((f) => f.type === "event").map((f) => f.type === "event" && f.event);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ type: "comment.added", data: { is_public: true } });
  });
});

describe("sessions that end", () => {
  it("closes the socket of a session that signs out, within seconds", async () => {
    const org = await registerOrg(t.app);
    const c = await client();
    await c.join(org.token, ["tickets"]);
    await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(org.token) });
    const { code } = await c.closed;
    expect(code).toBe(CLOSE.unauthorized);
  });

  it("closes a deactivated member's socket at once", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const c = await client();
    await c.join(agent.token, ["tickets"]);
    const started = Date.now();
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/users/${agent.id}`,
      headers: bearer(org.token),
      payload: { status: "inactive" },
    });
    expect(res.statusCode).toBe(200);
    expect((await c.closed).code).toBe(CLOSE.unauthorized);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("presence", () => {
  it("shows who else views a ticket and who is replying, and forgets them when they leave", async () => {
    const org = await registerOrg(t.app, { firstName: "Ada", lastName: "Okoro" });
    const priya = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const ticket = await createTicket(t.app, org, where);
    const topic = `ticket:${ticket.id}`;
    const ada = await client();
    await ada.join(org.token, [topic]);
    const p = await client();
    await p.join(priya.token, [topic]);
    const viewers = (c: RealtimeClient, match: (names: string[]) => boolean) =>
      c.next(
        (f) =>
          f.type === "presence" && f.topic === topic && match(f.viewers.map((v) => `${v.name}${v.typing ? "*" : ""}`)),
      );
    await viewers(ada, (names) => names.includes("Priya Shah"));
    await viewers(p, (names) => names.includes("Ada Okoro"));
    p.send({ type: "typing", topic });
    await viewers(ada, (names) => names.includes("Priya Shah*"));
    p.close();
    await viewers(ada, (names) => names.length === 0);
  });
});
