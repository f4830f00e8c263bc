import type { ContactAnswer, ContactListAnswer, TicketContactAnswer } from "@cove/contract/contacts.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { contacts } from "../../src/db/schema/contacts.ts";
import { bearer, errorAnswer, naughtySample, registerOrg, testAppForFile, unique } from "../helpers.ts";

const t = testAppForFile();

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });

async function ticket(token: string, requester_name: string, requester_email: string, subject = "Hello") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/tickets",
    headers: bearer(token),
    payload: { subject, description: "d", requester_name, requester_email },
  });
  expect(res.statusCode).toBe(201);
  return res.json().ticket as Ticket;
}

describe("the contacts list for staff", () => {
  it("lists the organization's customers, newest first, with their ticket counts; searchable by name, email, company", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    await ticket(org.token, "Ana Ruiz", "ana@example.com", "First");
    await ticket(org.token, "Ana Ruiz", "ANA@example.com", "Second");
    await ticket(org.token, "Bo Chen", "bo@chen.example");
    await ticket(org.token, "Cy 100%_sure", "cy@example.com");
    await ticket(other.token, "Ana Ruiz", "ana@example.com");
    await t.database.db.insert(contacts).values({
      organizationId: org.user.organizationId,
      name: "Di Park",
      email: "di@park.example",
      company: "Park Tools",
    });

    const all = (await get(org.token, "/api/contacts")).json() as ContactListAnswer;
    expect(all.contacts.map((c) => c.name)).toEqual(["Di Park", "Cy 100%_sure", "Bo Chen", "Ana Ruiz"]);
    expect(all.pagination).toEqual({ page: 1, limit: 25, total: 4, pages: 1, next_cursor: null });
    const ana = all.contacts.find((c) => c.name === "Ana Ruiz");
    expect(ana).toMatchObject({
      email: "ana@example.com",
      company: null,
      ticket_count: 2,
      last_ticket_at: expect.any(String),
    });
    expect(all.contacts.find((c) => c.name === "Di Park")).toMatchObject({ ticket_count: 0, last_ticket_at: null });

    const search = async (q: string) =>
      (
        (await get(org.token, `/api/contacts?search=${encodeURIComponent(q)}`)).json() as ContactListAnswer
      ).contacts.map((c) => c.name);
    expect(await search("ana")).toEqual(["Ana Ruiz"]);
    expect(await search("CHEN.EXAMPLE")).toEqual(["Bo Chen"]);
    expect(await search("park tools")).toEqual(["Di Park"]);
    // What a person types is matched literally: % and _ are not wildcards.
    expect(await search("%")).toEqual(["Cy 100%_sure"]);
    expect(await search("_")).toEqual(["Cy 100%_sure"]);
    expect(await search("nobody")).toEqual([]);

    const empty = (await get(org.token, "/api/contacts?page=9")).json() as ContactListAnswer;
    expect(empty).toMatchObject({ contacts: [], pagination: { page: 9, total: 4, pages: 1 } });
    expect((await get(org.token, "/api/contacts?page=0")).statusCode).toBe(400);
    expect((await get(org.token, `/api/contacts?search=${"x".repeat(201)}`)).statusCode).toBe(400);
  });

  it("opens a customer with their tickets; another organization's customer is not found", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const email = `eve-${unique()}@example.com`;
    const one = await ticket(org.token, "Eve Adams", email, "One");
    const two = await ticket(org.token, "Eve Adams", email, "Two");
    const list = (await get(org.token, "/api/contacts")).json() as ContactListAnswer;
    const eve = list.contacts[0];
    if (!eve) throw new Error("no contact");

    const res = await get(org.token, `/api/contacts/${eve.id}`);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as ContactAnswer;
    expect(answer.contact).toMatchObject({ name: "Eve Adams", email, ticket_count: 2 });
    expect(answer.tickets.map((x) => x.subject)).toEqual(["Two", "One"]);
    expect(Object.keys(answer.tickets[0] ?? {}).sort()).toEqual([
      "created_at",
      "id",
      "priority",
      "status",
      "subject",
      "ticket_number",
      "updated_at",
    ]);

    for (const id of [eve.id, "nope", "00000000-0000-0000-0000-000000000000"]) {
      const theirs = await get(other.token, `/api/contacts/${id}`);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual(errorAnswer("Contact not found", "NOT_FOUND"));
    }
    expect(((await get(other.token, "/api/contacts")).json() as ContactListAnswer).contacts).toEqual([]);

    const panel = (await get(org.token, `/api/tickets/${one.id}/contact`)).json() as TicketContactAnswer;
    expect(panel.contact?.id).toBe(eve.id);
    expect(panel.other_tickets.map((x) => x.id)).toEqual([two.id]);
    expect((await get(other.token, `/api/tickets/${one.id}/contact`)).statusCode).toBe(404);
    expect((await get(org.token, "/api/tickets/nope/contact")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/contacts" })).statusCode).toBe(401);
  });

  it("answers a naughty search with the organization's own matching customers, or a clear 400", {
    timeout: 120_000,
  }, async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    // What the search box sends: 200 characters at most, a lone surrogate made U+FFFD as the API's edge makes it.
    const queries = naughtySample().map((s) => s.slice(0, 200).replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
    // Every query is the name of a customer in both organizations (PostgreSQL text holds no NUL: those are left out).
    const named = (orgId: string) =>
      queries.filter((q) => !q.includes("\0")).map((name) => ({ organizationId: orgId, name }));
    const ours = new Set(
      (await t.database.db.insert(contacts).values(named(org.user.organizationId)).returning({ id: contacts.id })).map(
        (c) => c.id,
      ),
    );
    await t.database.db.insert(contacts).values(named(other.user.organizationId));
    for (const q of queries) {
      const res = await get(org.token, `/api/contacts?search=${encodeURIComponent(q)}`);
      if (q.includes("\0")) {
        expect([res.statusCode, res.json().error], JSON.stringify(q)).toEqual([400, expect.any(String)]);
        continue;
      }
      expect(res.statusCode, JSON.stringify(q)).toBe(200);
      const found = res.json() as ContactListAnswer;
      for (const contact of found.contacts) expect(ours.has(contact.id), JSON.stringify(q)).toBe(true);
      // The customer named q matches it (a blank search lists everyone): the list is never empty.
      expect(found.pagination.total, JSON.stringify(q)).toBeGreaterThanOrEqual(1);
      expect(found.pagination.total, JSON.stringify(q)).toBeLessThanOrEqual(ours.size);
    }
  });
});
