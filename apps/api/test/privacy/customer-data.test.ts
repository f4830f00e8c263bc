import { randomUUID } from "node:crypto";
import { ERASE_MISMATCH_EMAIL, ERASED_CONTACT_NAME } from "@cove/contract/contacts.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { attachmentParts, attachments } from "../../src/db/schema/attachments.ts";
import { chatMessages, chatSessions } from "../../src/db/schema/chat.ts";
import { contactSessions, contacts } from "../../src/db/schema/contacts.ts";
import { csatSurveys } from "../../src/db/schema/csat.ts";
import { emailMessages } from "../../src/db/schema/email.ts";
import { notifications } from "../../src/db/schema/notifications.ts";
import { portalSignInLinks } from "../../src/db/schema/portal.ts";
import { ticketComments, ticketEvents, tickets } from "../../src/db/schema/tickets.ts";
import { startContactSession } from "../../src/modules/contacts/contacts.service.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import {
  addComment,
  addMember,
  client,
  createTicket,
  naughtySample,
  registerOrg,
  testAppForFile,
  unique,
  xssPayloads,
} from "../helpers.ts";
import { demoOrganizationWithAdmin } from "../support/demo.ts";

const t = testAppForFile();

const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

/**
 * A customer with a bit of everything: two tickets (a staff reply, an internal note, a reply of their own with a file
 * stored in parts, their mail's file on the first message, a note's file), a chat with a file, an answered survey, a
 * portal session, a sign-in link and a received email.
 */
async function seedCustomer(org: Org, name: string) {
  const orgId = org.user.organizationId;
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${unique()}@example.com`;
  const ticket = await createTicket(t.app, org, { requester_name: name, requester_email: email, subject: `${name} 1` });
  const second = await createTicket(t.app, org, { requester_name: name, requester_email: email, subject: `${name} 2` });
  await addComment(t.app, org, ticket.id, { body: `Public answer to ${name}` });
  const note = await addComment(t.app, org, ticket.id, { body: `INTERNAL about ${name}`, is_public: false });
  const db = t.database.db;
  const [row] = await db.select({ contactId: tickets.contactId }).from(tickets).where(eq(tickets.id, ticket.id));
  const contactId = row?.contactId as string;
  const [own] = await db
    .insert(ticketComments)
    .values({
      organizationId: orgId,
      ticketId: ticket.id,
      authorContactId: contactId,
      authorName: name,
      authorEmail: email,
      body: `${name}'s own words`,
    })
    .returning({ id: ticketComments.id });
  const uploadId = randomUUID();
  await db.insert(attachmentParts).values([
    { uploadId, seq: 0, organizationId: orgId, bytes: Buffer.from(`${name} part one;`) },
    { uploadId, seq: 1, organizationId: orgId, bytes: Buffer.from(`${name} part two`) },
  ]);
  const file = (values: Partial<typeof attachments.$inferInsert> & { filename: string; bytes: Buffer }) => ({
    organizationId: orgId,
    contentType: "text/plain",
    size: values.bytes.length,
    ...values,
  });
  await db.insert(attachments).values([
    file({ ticketId: ticket.id, filename: "from-mail.txt", bytes: Buffer.from(`${name} mail file`) }),
    file({
      ticketId: ticket.id,
      commentId: own?.id,
      contactId,
      filename: "mine.txt",
      bytes: Buffer.alloc(0),
      uploadId,
      size: 30,
    }),
    file({ ticketId: ticket.id, commentId: note.id, filename: "note.txt", bytes: Buffer.from("NOTE FILE") }),
  ]);
  const [chat] = await db
    .insert(chatSessions)
    .values({ organizationId: orgId, contactId, visitorName: name, visitorEmail: email, status: "closed" })
    .returning({ id: chatSessions.id });
  const chatId = chat?.id as string;
  const [message] = await db
    .insert(chatMessages)
    .values([
      {
        organizationId: orgId,
        sessionId: chatId,
        senderType: "visitor",
        message: `${name} asks in chat`,
        createdAt: new Date(Date.now() - 1000),
      },
      { organizationId: orgId, sessionId: chatId, senderType: "agent", senderName: "Pat", message: "Chat answer" },
    ])
    .returning({ id: chatMessages.id });
  await db.insert(attachments).values(
    file({
      chatSessionId: chatId,
      chatMessageId: message?.id,
      filename: "chat.txt",
      bytes: Buffer.from(`${name} chat`),
    }),
  );
  await db.insert(csatSurveys).values({
    organizationId: orgId,
    ticketId: second.id,
    contactId,
    solvedAt: new Date(),
    expiresAt: new Date(Date.now() + 86_400_000),
    rating: "good",
    comment: `${name} was pleased`,
    answeredAt: new Date(),
  });
  await withSystem(db, orgId, "test", (ctx) => startContactSession(ctx, contactId, "portal", 86_400_000));
  await db.insert(portalSignInLinks).values({
    organizationId: orgId,
    email,
    tokenHash: `hash-${randomUUID()}`,
    ip: "10.0.0.1",
    expiresAt: new Date(Date.now() + 60_000),
  });
  await db.insert(emailMessages).values({
    organizationId: orgId,
    direction: "in",
    ticketId: ticket.id,
    address: email,
    subject: "Help",
    status: "received",
    raw: `From: ${name} <${email}>`,
    html: `<p>${name}</p>`,
  });
  // What the portal leaves when they act (an activity step in their name) and the members' notifications about them.
  await db.insert(ticketEvents).values({
    organizationId: orgId,
    ticketId: second.id,
    actorName: name,
    type: "status",
    fromValue: "solved",
    toValue: "open",
  });
  await db.insert(notifications).values([
    {
      organizationId: orgId,
      userId: org.user.id,
      type: "reply",
      ticketId: ticket.id,
      actorName: name,
      title: "#1 Help",
      link: `/tickets/${ticket.id}`,
    },
    {
      organizationId: orgId,
      userId: org.user.id,
      type: "chat_waiting",
      actorName: name,
      title: `${name} is waiting for a person in live chat`,
      link: `/chat?session=${chatId}`,
    },
  ]);
  // The staff reply's mail is recorded by a durable handler: waited for, so the counts below hold still.
  const until = Date.now() + 20_000;
  for (;;) {
    const out = await db
      .select({ status: emailMessages.status })
      .from(emailMessages)
      .where(and(eq(emailMessages.ticketId, ticket.id), eq(emailMessages.direction, "out")));
    if (out.some((m) => m.status !== "sending")) break;
    if (Date.now() > until) throw new Error("the reply's mail was never recorded");
    await new Promise((r) => setTimeout(r, 50));
  }
  return { orgId, name, email, contactId, ticketId: ticket.id, secondId: second.id, chatId, uploadId };
}
type Customer = Awaited<ReturnType<typeof seedCustomer>>;

async function finished(token: string, contactId: string) {
  const until = Date.now() + 20_000;
  for (;;) {
    const current = (await call(token, "GET", `/api/contacts/${contactId}/export`)).json().export;
    if (current?.status === "done" || current?.status === "failed") return current;
    if (Date.now() > until) throw new Error(`export never finished: ${JSON.stringify(current)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Everything stored about a customer, counted: what erasing must empty, and what it must leave alone. */
async function footprint(c: Customer) {
  const db = t.database.db;
  return {
    tickets: await db.$count(tickets, eq(tickets.contactId, c.contactId)),
    named: await db.$count(tickets, and(eq(tickets.organizationId, c.orgId), eq(tickets.requesterEmail, c.email))),
    comments: await db.$count(ticketComments, inArray(ticketComments.ticketId, [c.ticketId, c.secondId])),
    chats: await db.$count(chatSessions, eq(chatSessions.contactId, c.contactId)),
    chatMessages: await db.$count(chatMessages, eq(chatMessages.sessionId, c.chatId)),
    files: await db.$count(
      attachments,
      sql`${attachments.ticketId} = ${c.ticketId} or ${attachments.chatSessionId} = ${c.chatId}`,
    ),
    parts: await db.$count(attachmentParts, eq(attachmentParts.uploadId, c.uploadId)),
    surveys: await db.$count(csatSurveys, eq(csatSurveys.contactId, c.contactId)),
    sessions: await db.$count(contactSessions, eq(contactSessions.contactId, c.contactId)),
    links: await db.$count(portalSignInLinks, eq(portalSignInLinks.email, c.email)),
    mail: await db.$count(emailMessages, eq(emailMessages.address, c.email)),
    named_steps: await db.$count(
      ticketEvents,
      and(eq(ticketEvents.ticketId, c.secondId), eq(ticketEvents.actorName, c.name)),
    ),
    notified: await db.$count(
      notifications,
      and(eq(notifications.organizationId, c.orgId), eq(notifications.actorName, c.name)),
    ),
  };
}

describe("a customer's data export", () => {
  it("is a ZIP of their profile, tickets with public messages only, chats, survey answers and files' bytes", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const other = await seedCustomer(org, "Bo Lind");
    const started = await call(org, "POST", `/api/contacts/${ana.contactId}/export`);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().export).toMatchObject({ status: "queued", progress: 0 });
    // A second click while it runs answers the same export; the organization's own export is another one.
    expect((await call(org, "POST", `/api/contacts/${ana.contactId}/export`)).json().export.id).toBe(
      started.json().export.id,
    );
    expect((await call(org, "GET", "/api/organization/export")).json().export).toBeNull();

    const done = await finished(org.token, ana.contactId);
    expect(done).toMatchObject({ id: started.json().export.id, status: "done", progress: 100 });
    const res = await call(org, "GET", `/api/contacts/${ana.contactId}/export/${done.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="cove-customer-export-.*\.zip"$/);
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    const text = (name: string) => strFromU8(zip[name] ?? new Uint8Array());
    const read = (name: string) => JSON.parse(text(name));

    expect(read("profile.json")).toMatchObject({ id: ana.contactId, name: "Ana Ruiz", email: ana.email });
    const ticketsJson = read("tickets.json");
    expect(ticketsJson.map((x: { subject: string }) => x.subject)).toEqual(["Ana Ruiz 1", "Ana Ruiz 2"]);
    expect(ticketsJson[0].messages.map((m: { body: string }) => m.body)).toEqual([
      "Public answer to Ana Ruiz",
      "Ana Ruiz's own words",
    ]);
    expect(ticketsJson[0].messages[1].from_customer).toBe(true);
    const chats = read("chats.json");
    expect(chats).toHaveLength(1);
    expect(chats[0].messages.map((m: { message: string }) => m.message)).toEqual([
      "Ana Ruiz asks in chat",
      "Chat answer",
    ]);
    expect(read("satisfaction.json")).toEqual([
      expect.objectContaining({ ticket_id: ana.secondId, rating: "good", comment: "Ana Ruiz was pleased" }),
    ]);
    const files = read("files.json") as { path: string; filename: string }[];
    expect(files.map((f) => f.filename).sort()).toEqual(["chat.txt", "from-mail.txt", "mine.txt"]);
    const bytes = (filename: string) => text(files.find((f) => f.filename === filename)?.path ?? "");
    expect(bytes("mine.txt")).toBe("Ana Ruiz part one;Ana Ruiz part two");
    expect(bytes("from-mail.txt")).toBe("Ana Ruiz mail file");
    expect(bytes("chat.txt")).toBe("Ana Ruiz chat");

    // Nothing of the team's notes, and nothing of another customer.
    const everything = Object.keys(zip).map(text).join("\n");
    expect(everything).not.toContain("INTERNAL");
    expect(everything).not.toContain("NOTE FILE");
    expect(everything).not.toContain("Bo Lind");
    expect(everything).not.toContain(other.email);
    // The organization's download route does not serve a customer's export, nor the other way round.
    expect((await call(org, "GET", `/api/organization/export/${done.id}/download`)).statusCode).toBe(404);
    expect((await call(org, "GET", `/api/contacts/${other.contactId}/export/${done.id}/download`)).statusCode).toBe(
      404,
    );
  });

  it("is for admins of the customer's organization only: agents 403, another organization 404, nothing started", async () => {
    const org = await registerOrg(t.app);
    const stranger = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const ana = await seedCustomer(org, "Ana Ruiz");
    for (const [method, url] of [
      ["POST", `/api/contacts/${ana.contactId}/export`],
      ["GET", `/api/contacts/${ana.contactId}/export`],
      ["GET", `/api/contacts/${ana.contactId}/export/${randomUUID()}/download`],
    ] as const) {
      const refused = await call(agent.token, method, url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error).toBe("Only an administrator can do this.");
      const hidden = await call(stranger, method, url);
      expect(hidden.statusCode, url).toBe(404);
      expect(hidden.json().error).toBe("Contact not found");
    }
    for (const id of ["nope", "../1", randomUUID()]) {
      expect((await call(org, "POST", `/api/contacts/${encodeURIComponent(id)}/export`)).statusCode).toBe(404);
    }
    expect((await call(org, "GET", `/api/contacts/${ana.contactId}/export`)).json().export).toBeNull();
    expect((await call(org, "POST", `/api/contacts/${ana.contactId}/export`)).statusCode).toBe(202);
    const done = await finished(org.token, ana.contactId);
    // Another organization's admin cannot download it, even knowing its id.
    const theirs = await call(stranger, "GET", `/api/contacts/${ana.contactId}/export/${done.id}/download`);
    expect(theirs.statusCode).toBe(404);
  });
});

describe("erasing a customer", () => {
  it("deletes their chats, files, surveys, sessions and links, and leaves 'Deleted customer' on their tickets", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const bo = await seedCustomer(org, "Bo Lind");
    const elsewhere = await registerOrg(t.app);
    const twin = await seedCustomer(elsewhere, "Ana Ruiz");
    const boBefore = await footprint(bo);
    const twinBefore = await footprint(twin);
    const ticketsBefore = (await call(org, "GET", "/api/tickets")).json();
    await call(org, "POST", `/api/contacts/${ana.contactId}/export`);
    await finished(org.token, ana.contactId);

    const res = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, {
      confirmEmail: `  ${ana.email.toUpperCase()} `,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contact).toMatchObject({
      id: ana.contactId,
      name: ERASED_CONTACT_NAME,
      email: null,
      company: null,
      ticket_count: 2,
    });
    expect(res.json().erased).toEqual({ tickets_anonymized: 2, chats: 1, files: 3, surveys: 1, sessions: 1 });

    expect(await footprint(ana)).toEqual({
      tickets: 2,
      named: 0,
      // Comments stay (the team's history); only who wrote them is gone.
      comments: 3,
      chats: 0,
      chatMessages: 0,
      // The note's file is the team's and stays.
      files: 1,
      parts: 0,
      surveys: 0,
      sessions: 0,
      links: 0,
      mail: 0,
      named_steps: 0,
      notified: 0,
    });
    const db = t.database.db;
    const their = await db.select().from(tickets).where(eq(tickets.contactId, ana.contactId));
    for (const row of their) {
      expect(row.requesterName).toBe(ERASED_CONTACT_NAME);
      expect(row.requesterEmail).toMatch(/^deleted-customer-[0-9a-f-]{36}@erased\.invalid$/);
    }
    const [own] = await db.select().from(ticketComments).where(eq(ticketComments.authorContactId, ana.contactId));
    expect(own).toMatchObject({ authorName: ERASED_CONTACT_NAME, body: "Ana Ruiz's own words" });
    expect(own?.authorEmail).not.toContain("example.com");
    const [mail] = await db.select().from(emailMessages).where(eq(emailMessages.ticketId, ana.ticketId));
    expect(mail).toMatchObject({ raw: null, html: null });
    expect(mail?.address).toMatch(/@erased\.invalid$/);
    const [contact] = await db.select().from(contacts).where(eq(contacts.id, ana.contactId));
    expect(contact).toMatchObject({ name: ERASED_CONTACT_NAME, email: null });
    // Their export held a copy of everything: it is gone too.
    expect((await call(org, "GET", `/api/contacts/${ana.contactId}/export`)).json().export).toBeNull();

    // The team's list shows the same tickets, numbers and count, under the new name; the page says who they are now.
    const ticketsAfter = (await call(org, "GET", "/api/tickets")).json();
    expect(ticketsAfter.pagination.total).toBe(ticketsBefore.pagination.total);
    const numbers = (list: { tickets: { ticket_number: number }[] }) => list.tickets.map((x) => x.ticket_number);
    expect(numbers(ticketsAfter)).toEqual(numbers(ticketsBefore));
    const shown = (await call(org, "GET", `/api/tickets/${ana.ticketId}`)).json();
    expect(JSON.stringify(shown)).not.toContain(ana.email);
    expect(shown.ticket.requester_name).toBe(ERASED_CONTACT_NAME);
    // What people wrote stays (the team's history), but no longer says who the customer was.
    expect(shown.ticket.comments.map((c: { author_name: string }) => c.author_name)).not.toContain("Ana Ruiz");
    const page = (await call(org, "GET", `/api/contacts/${ana.contactId}`)).json();
    expect(page.contact.name).toBe(ERASED_CONTACT_NAME);
    expect(page.chats).toEqual([]);
    const search = (await call(org, "GET", `/api/tickets?search=${encodeURIComponent(ana.email)}`)).json();
    expect(search.tickets).toEqual([]);

    // Another customer, and the same customer's namesake in another organization, are untouched.
    expect(await footprint(bo)).toEqual(boBefore);
    expect(await footprint(twin)).toEqual(twinBefore);
    const [boTicket] = await db.select().from(tickets).where(eq(tickets.id, bo.ticketId));
    expect(boTicket).toMatchObject({ requesterName: "Bo Lind", requesterEmail: bo.email });
  });

  it("answers 422 with a clear message when the typed email does not match, and changes nothing", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const before = await footprint(ana);
    for (const confirmEmail of ["", "ana@example.com", `${ana.email}x`, ana.email.replace("@", " @")]) {
      const res = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, { confirmEmail });
      expect(res.statusCode, confirmEmail).toBe(422);
      expect(res.json()).toMatchObject({ error: ERASE_MISMATCH_EMAIL, code: "CONFIRMATION_MISMATCH" });
    }
    for (const payload of [{}, { confirmEmail: 42 }, { confirmEmail: null }, { confirmEmail: "a".repeat(400) }]) {
      const res = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("Type the customer's email to confirm");
    }
    expect(await footprint(ana)).toEqual(before);
  });

  it("answers naughty strings and XSS in the confirmation with a 4xx, never erasing", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const before = await footprint(ana);
    for (const confirmEmail of [...naughtySample(), ...xssPayloads().slice(0, 40)]) {
      const res = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, { confirmEmail });
      expect(res.statusCode, confirmEmail).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, confirmEmail).toBeLessThan(500);
    }
    expect(await footprint(ana)).toEqual(before);
  });

  it("is for admins of the customer's organization only: agents 403, another organization 404, nothing erased", async () => {
    const org = await registerOrg(t.app);
    const stranger = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const before = await footprint(ana);
    const url = `/api/contacts/${ana.contactId}/erase`;
    const refused = await call(agent.token, "POST", url, { confirmEmail: ana.email });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("Only an administrator can do this.");
    const hidden = await call(stranger, "POST", url, { confirmEmail: ana.email });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error).toBe("Contact not found");
    expect(
      (await call(org, "POST", `/api/contacts/${randomUUID()}/erase`, { confirmEmail: ana.email })).statusCode,
    ).toBe(404);
    expect(await footprint(ana)).toEqual(before);
    const page = await call(org, "GET", `/api/contacts/${ana.contactId}`);
    expect(page.json().contact?.name, page.body).toBe("Ana Ruiz");
  });

  it("erases once under concurrent requests: one 200, the others a clear 409; exports started at once are one", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    const started = await Promise.all(
      Array.from({ length: 4 }, () => call(org, "POST", `/api/contacts/${ana.contactId}/export`)),
    );
    expect(started.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    expect(new Set(started.map((r) => r.json().export.id)).size).toBe(1);
    await finished(org.token, ana.contactId);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(org, "POST", `/api/contacts/${ana.contactId}/erase`, { confirmEmail: ana.email }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const refused of answers.filter((r) => r.statusCode === 409)) {
      expect(refused.json().error).toBe("This customer has already been erased.");
    }
    expect((await footprint(ana)).chats).toBe(0);
  });

  it("refuses in the demo organization, whose customer everyone tries", async () => {
    const { admin, ...demo } = await demoOrganizationWithAdmin(t.database);
    const org = { token: admin.token, user: { id: admin.id, organizationId: demo.id } } as Org;
    const ana = await seedCustomer(org, "Ana Ruiz");
    const before = await footprint(ana);
    const res = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, { confirmEmail: ana.email });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("The demo organization's customers cannot be erased.");
    expect(await footprint(ana)).toEqual(before);
  });

  it("confirms a customer without an email by their name", async () => {
    const org = await registerOrg(t.app);
    const [visitor] = await t.database.db
      .insert(contacts)
      .values({ organizationId: org.user.organizationId, name: "Chat Visitor" })
      .returning({ id: contacts.id });
    const url = `/api/contacts/${visitor?.id}/erase`;
    const wrong = await call(org, "POST", url, { confirmEmail: "someone@example.com" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toBe("The name you typed does not match this customer's name.");
    const res = await call(org, "POST", url, { confirmEmail: "chat visitor" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().contact.name).toBe(ERASED_CONTACT_NAME);
  });
});

describe("a customer's data request in the audit log", () => {
  it("records the export started and downloaded and the erase, by the admin, naming no erased person", async () => {
    const org = await registerOrg(t.app);
    const ana = await seedCustomer(org, "Ana Ruiz");
    await call(org, "POST", `/api/contacts/${ana.contactId}/export`);
    const done = await finished(org.token, ana.contactId);
    expect((await call(org, "GET", `/api/contacts/${ana.contactId}/export/${done.id}/download`)).statusCode).toBe(200);
    const erased = await call(org, "POST", `/api/contacts/${ana.contactId}/erase`, { confirmEmail: ana.email });
    expect(erased.statusCode, erased.body).toBe(200);
    const log = await call(org, "GET", "/api/audit-log?limit=200");
    const entries = (log.json() as { entries: { action: string; actor: { type: string; id: string } }[] }).entries;
    for (const action of ["contact.export_started", "contact.export_downloaded", "contact.erased"]) {
      const found = entries.filter((e) => e.action === action);
      expect(found, action).toHaveLength(1);
      expect(found[0]?.actor).toMatchObject({ type: "member", id: org.user.id });
    }
    expect(log.body).not.toContain(ana.email);
    expect(log.body).not.toContain("Ana Ruiz");
    // A refused erase (wrong email) records nothing.
    const bo = await seedCustomer(org, "Bo Lind");
    await call(org, "POST", `/api/contacts/${bo.contactId}/erase`, { confirmEmail: "someone@else.example" });
    const after = (await call(org, "GET", "/api/audit-log?limit=200&action=contact.erased")).json().entries;
    expect(after).toHaveLength(1);
  });
});
