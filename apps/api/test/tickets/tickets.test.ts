import {
  LIST_DESCRIPTION_CHARS,
  type Ticket,
  type TicketListAnswer,
  type TicketStats,
} from "@cove/contract/tickets.ts";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { tickets } from "../../src/db/schema/tickets.ts";
import {
  addMember,
  client,
  createTicket,
  errorAnswer,
  orgForFile,
  registerOrg,
  testAppForFile,
  unique,
} from "../helpers.ts";

const t = testAppForFile();
const a = orgForFile(t);
const b = orgForFile(t);

type Session = typeof a;
const call = client(() => t.app);

const newTicket = (overrides: Record<string, unknown> = {}) => ({
  subject: `Cannot sign in ${unique()}`,
  description: "The app says my password is wrong.\nI reset it twice.",
  requester_name: "Jane Q Public",
  requester_email: "Jane.Public@Example.com",
  ...overrides,
});

const create = (who: Session, overrides: Record<string, unknown> = {}) =>
  createTicket(t.app, who, newTicket(overrides));

const list = async (who: Session, query = "") => {
  const res = await call(who, "GET", `/api/tickets${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TicketListAnswer;
};

describe("POST /api/tickets", () => {
  it("creates an open ticket with the next number, normal priority, and no tags", async () => {
    const org = await registerOrg(t.app);
    const first = await create(org);
    const second = await create(org, { priority: "urgent", tags: ["Billing", "billing", "vip"] });
    expect(first).toMatchObject({
      ticket_number: 1,
      status: "open",
      priority: "normal",
      source: "web",
      requester_name: "Jane Q Public",
      requester_email: "jane.public@example.com",
      requester_first_name: "Jane",
      requester_last_name: "Q Public",
      assignee_id: null,
      tags: [],
      comments: [],
      description: "The app says my password is wrong.\nI reset it twice.",
    });
    expect(first.activity).toEqual([expect.objectContaining({ type: "created", actor_name: "Ada Lovelace" })]);
    expect(second).toMatchObject({ ticket_number: 2, priority: "urgent", tags: ["billing", "vip"] });
  });

  it("numbers tickets per organization, never repeating under concurrent creation", async () => {
    const org = await registerOrg(t.app);
    const created = await Promise.all(Array.from({ length: 12 }, () => create(org)));
    const numbers = created.map((c) => c.ticket_number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await create(b)).ticket_number).toBeGreaterThanOrEqual(1);
  });

  it("requires the spec's fields with clear messages", async () => {
    const res = await call(a, "POST", "/api/tickets", { requester_email: "not-an-email" });
    expect(res.statusCode).toBe(400);
    const messages = res.json().details.map((d: { message: string }) => d.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "Subject is required",
        "Description is required",
        "Requester name is required",
        "Enter a valid requester email address",
      ]),
    );
    const badPriority = await call(a, "POST", "/api/tickets", newTicket({ priority: "asap" }));
    expect(badPriority.statusCode).toBe(400);
    expect(badPriority.json().error).toBe("Priority must be one of low, normal, high, urgent");
  });
});

describe("GET /api/tickets", () => {
  let org: Session;
  let agentId: string;
  beforeAll(async () => {
    org = await registerOrg(t.app);
    agentId = (await addMember(t.database, org.user.organizationId)).id;
    for (let i = 0; i < 30; i++) {
      await create(org, {
        subject: `Order ${i} question`,
        priority: i % 10 === 0 ? "urgent" : "normal",
      });
    }
    const page = await list(org, "?limit=100");
    const urgent = page.tickets.filter((x) => x.priority === "urgent");
    await call(org, "PUT", `/api/tickets/${urgent[0]?.id}`, { status: "pending", assignee_id: org.user.id });
    await call(org, "PUT", `/api/tickets/${urgent[1]?.id}`, { assignee_id: agentId });
  });

  it("pages 25 at a time, newest activity first, with pagination figures", async () => {
    const first = await list(org);
    expect(first.pagination).toEqual({ page: 1, limit: 25, total: 30, pages: 2, next_cursor: expect.any(String) });
    expect(first.tickets).toHaveLength(25);
    const second = await list(org, "?page=2");
    expect(second.tickets).toHaveLength(5);
    const ids = new Set([...first.tickets, ...second.tickets].map((x) => x.id));
    expect(ids.size).toBe(30);
    const updated = first.tickets.map((x) => x.updated_at);
    expect([...updated].sort().reverse()).toEqual(updated);
  });

  it("filters by status, priority and assignee, alone and together", async () => {
    expect((await list(org, "?priority=urgent")).pagination.total).toBe(3);
    expect((await list(org, "?status=pending")).pagination.total).toBe(1);
    expect((await list(org, "?status=open&priority=urgent")).pagination.total).toBe(2);
    expect((await list(org, "?assignee_id=unassigned")).pagination.total).toBe(28);
    expect((await list(org, "?assignee_id=me")).tickets.map((x) => x.status)).toEqual(["pending"]);
    const byAgent = await list(org, `?assignee_id=${agentId}`);
    expect(byAgent.tickets).toHaveLength(1);
    expect(byAgent.tickets[0]).toMatchObject({ assignee_first_name: "Marco", assignee_last_name: "Alvarez" });
    expect((await list(org, "?assignee_id=unassigned&priority=urgent&status=open")).pagination.total).toBe(1);
  });

  it("answers a preview of each description, and the detail answers the whole of it", async () => {
    const own = await registerOrg(t.app);
    const description = `${"Ünïcode and words. ".repeat(20)}The end of a long description.`;
    const ticket = await create(own, { description });
    const listed = (await list(own)).tickets[0];
    expect(listed?.id).toBe(ticket.id);
    expect(listed?.description).toBe(description.slice(0, LIST_DESCRIPTION_CHARS));
    expect((await list(own, "?search=Ünïcode")).tickets[0]?.description).toBe(listed?.description);
    const short = await create(own, { description: "Short." });
    expect((await list(own, "?status=open")).tickets.find((x) => x.id === short.id)?.description).toBe("Short.");
    const detail = await call(own, "GET", `/api/tickets/${ticket.id}`);
    expect((detail.json().ticket as Ticket).description).toBe(description);
  });

  it("rejects bad filters with a clear 400", async () => {
    for (const [query, message] of [
      ["?status=done", "status must be one of open, pending, solved, closed"],
      ["?priority=1", "priority must be one of low, normal, high, urgent"],
      ["?limit=101", "limit must be at most 100"],
      ["?page=0", "page starts at 1"],
      ["?assignee_id=bob", "assignee_id must be unassigned, me, or a user id"],
    ] as const) {
      const res = await call(org, "GET", `/api/tickets${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBe(message);
    }
  });
});

describe("search", () => {
  let org: Session;
  let refund: Ticket;
  beforeAll(async () => {
    org = await registerOrg(t.app);
    refund = await create(org, {
      subject: "Refund for a double charge",
      description: "My card was charged twice for the bike rack.",
      requester_name: "Priya Raman",
      requester_email: "priya.raman@bikes.example",
    });
    await create(org, { subject: "Shipping to Canada", description: "Do you ship bike racks to Toronto?" });
    const third = await create(org, { subject: "Broken pedal", description: "The left pedal snapped." });
    await call(org, "POST", `/api/tickets/${third.id}/comments`, { body: "Replacement tracking: zebra-7731" });
    await create(org, { subject: "Wobbly wheel", description: "Also, the pedal creaks." });
  });

  const found = async (q: string) =>
    (await list(org, `?search=${encodeURIComponent(q)}`)).tickets.map((x) => x.subject);

  it("matches subject, description, requester and comment text", async () => {
    expect(await found("double charge")).toEqual(["Refund for a double charge"]);
    expect(await found("Toronto")).toEqual(["Shipping to Canada"]);
    expect(await found("Priya")).toEqual(["Refund for a double charge"]);
    expect(await found("priya.raman@bikes.example")).toEqual(["Refund for a double charge"]);
    expect(await found("zebra")).toEqual(["Broken pedal"]);
  });

  it("matches the last word as a prefix, and stems words", async () => {
    expect(await found("refu")).toEqual(["Refund for a double charge"]);
    expect(await found("charges")).toEqual(["Refund for a double charge"]);
  });

  it("ranks a match in the subject above one in the description", async () => {
    expect(await found("pedal")).toEqual(["Broken pedal", "Wobbly wheel"]);
  });

  it("searches within the list's filters: status, priority, an assignee, me and unassigned", async () => {
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Lee", lastName: "Park" });
    const mine = await create(org, { subject: "Pedal bearing noise", priority: "high" });
    const theirs = await create(org, { subject: "Pedal strap torn" });
    await call(org, "PUT", `/api/tickets/${mine.id}`, { assignee_id: org.user.id, status: "pending" });
    await call(org, "PUT", `/api/tickets/${theirs.id}`, { assignee_id: agent.id });
    const within = async (filters: string) =>
      (await list(org, `?search=pedal${filters}`)).tickets.map((x) => x.subject).sort();
    expect(await within("&assignee_id=me")).toEqual(["Pedal bearing noise"]);
    expect(await within(`&assignee_id=${agent.id}`)).toEqual(["Pedal strap torn"]);
    expect(await within("&assignee_id=unassigned")).toEqual(["Broken pedal", "Wobbly wheel"]);
    expect(await within("&priority=high")).toEqual(["Pedal bearing noise"]);
    expect(await within("&status=pending&assignee_id=me&priority=high")).toEqual(["Pedal bearing noise"]);
    expect(await within("&status=open&assignee_id=me")).toEqual([]);
  });

  it("finds a ticket by its number, with or without #", async () => {
    expect((await list(org, `?search=${refund.ticket_number}`)).tickets[0]?.id).toBe(refund.id);
    expect((await list(org, `?search=%23${refund.ticket_number}`)).tickets[0]?.id).toBe(refund.id);
  });

  it("never sees another organization's tickets", async () => {
    const other = await registerOrg(t.app);
    expect((await list(other, "?search=refund")).tickets).toEqual([]);
    expect((await list(other, "?search=1")).tickets).toEqual([]);
  });

  it("treats query syntax as plain text", async () => {
    for (const q of ["&", "!!", "a & | b", "'", "(x", ":*", "\\", "   "]) {
      const res = await call(org, "GET", `/api/tickets?search=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
    }
  });
});

describe("GET /api/tickets/:id", () => {
  it("answers the ticket with comments in order and an activity timeline", async () => {
    const ticket = await create(a);
    await call(a, "POST", `/api/tickets/${ticket.id}/comments`, { body: "We are looking into it." });
    await call(a, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Checked the logs.", is_public: false });
    await call(a, "PUT", `/api/tickets/${ticket.id}`, { status: "pending" });
    const res = await call(a, "GET", `/api/tickets/${ticket.id}`);
    expect(res.statusCode).toBe(200);
    const full = res.json().ticket as Ticket;
    expect(full.comments.map((c) => [c.body, c.is_public, c.author_name, c.author_email])).toEqual([
      ["We are looking into it.", true, "Ada Lovelace", a.user.email],
      ["Checked the logs.", false, "Ada Lovelace", a.user.email],
    ]);
    expect(full.activity.map((e) => [e.type, e.from_value, e.to_value])).toEqual([
      ["created", null, `#${ticket.ticket_number}`],
      ["status", "open", "pending"],
    ]);
  });

  it("answers 404 for a missing, malformed, or another organization's ticket", async () => {
    const mine = await create(a);
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", mine.id]) {
      const res = await call(b, "GET", `/api/tickets/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(errorAnswer("Ticket not found", "NOT_FOUND"));
    }
  });
});

describe("PUT /api/tickets/:id", () => {
  it("changes status, priority, assignee and tags, recording each change", async () => {
    const ticket = await create(a);
    const res = await call(a, "PUT", `/api/tickets/${ticket.id}`, {
      status: "solved",
      priority: "high",
      assignee_id: a.user.id,
      tags: ["refund", "Refund", "vip"],
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().ticket as Ticket;
    expect(updated).toMatchObject({
      status: "solved",
      priority: "high",
      assignee_id: a.user.id,
      assignee_first_name: "Ada",
      tags: ["refund", "vip"],
    });
    expect(updated.solved_at).not.toBeNull();
    expect(updated.updated_at > ticket.updated_at).toBe(true);
    expect(updated.activity.map((e) => e.type)).toEqual(["created", "status", "priority", "assignee", "tags"]);

    const reopened = (await call(a, "PUT", `/api/tickets/${ticket.id}`, { status: "open" })).json().ticket as Ticket;
    expect(reopened.solved_at).toBeNull();
    const unassigned = (await call(a, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: null })).json()
      .ticket as Ticket;
    expect(unassigned.assignee_id).toBeNull();
  });

  it("refuses an assignee from another organization or an inactive one", async () => {
    const ticket = await create(a);
    const other = await call(a, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: b.user.id });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe("The assignee must be an active member of your team.");
  });

  it("rejects an empty change and bad values", async () => {
    const ticket = await create(a);
    expect((await call(a, "PUT", `/api/tickets/${ticket.id}`, {})).json().error).toBe(
      "Send at least one field to change",
    );
    expect((await call(a, "PUT", `/api/tickets/${ticket.id}`, { status: "archived" })).statusCode).toBe(400);
    expect((await call(a, "PUT", `/api/tickets/${ticket.id}`, { tags: "vip" })).statusCode).toBe(400);
  });

  it("answers 404 to another organization and changes nothing", async () => {
    const ticket = await create(a);
    const res = await call(b, "PUT", `/api/tickets/${ticket.id}`, { status: "closed" });
    expect(res.statusCode).toBe(404);
    const [row] = await t.database.db.select({ status: tickets.status }).from(tickets).where(eq(tickets.id, ticket.id));
    expect(row?.status).toBe("open");
  });
});

describe("POST /api/tickets/:id/comments", () => {
  it("adds a public reply by default and an internal note on request", async () => {
    const ticket = await create(a);
    const pub = await call(a, "POST", `/api/tickets/${ticket.id}/comments`, { body: "  Hello there  " });
    expect(pub.statusCode).toBe(201);
    expect(pub.json().comment).toMatchObject({ body: "Hello there", is_public: true, author_name: "Ada Lovelace" });
    const note = await call(a, "POST", `/api/tickets/${ticket.id}/comments`, { body: "internal", is_public: false });
    expect(note.json().comment.is_public).toBe(false);
  });

  it("refuses a blank reply and another organization's ticket", async () => {
    const ticket = await create(a);
    const blank = await call(a, "POST", `/api/tickets/${ticket.id}/comments`, { body: "   " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe("Reply is required");
    const foreign = await call(b, "POST", `/api/tickets/${ticket.id}/comments`, { body: "sneaky" });
    expect(foreign.statusCode).toBe(404);
    const full = (await call(a, "GET", `/api/tickets/${ticket.id}`)).json().ticket as Ticket;
    expect(full.comments).toEqual([]);
  });
});

describe("stats", () => {
  it("counts the dashboard figures for the caller's organization only", async () => {
    const org = await registerOrg(t.app);
    const solved = await create(org, { priority: "urgent" });
    await create(org, { priority: "high" });
    const assigned = await create(org);
    await call(org, "PUT", `/api/tickets/${solved.id}`, { status: "solved" });
    await call(org, "PUT", `/api/tickets/${assigned.id}`, { assignee_id: org.user.id, status: "pending" });
    await create(b);

    const res = await call(org, "GET", "/api/tickets/stats/overview");
    expect(res.statusCode).toBe(200);
    const stats = res.json() as TicketStats;
    expect(stats).toMatchObject({
      total_tickets: 3,
      open_tickets: 1,
      tickets_today: 1,
      urgent_tickets: 1,
      unassigned_tickets: 2,
      high_priority_tickets: 1,
      tickets_this_week: 3,
    });
    expect(stats.avg_resolution_hours).toBeGreaterThanOrEqual(0);
    expect(stats.avg_resolution_hours).toBeLessThan(0.1);
  });

  it("answers zeros and N/A for an organization without tickets", async () => {
    const org = await registerOrg(t.app);
    const stats = (await call(org, "GET", "/api/tickets/stats/overview")).json() as TicketStats;
    expect(stats).toEqual({
      total_tickets: 0,
      open_tickets: 0,
      tickets_today: 0,
      urgent_tickets: 0,
      unassigned_tickets: 0,
      high_priority_tickets: 0,
      tickets_this_week: 0,
      avg_resolution_hours: null,
    });
  });

  it("reports active users and a 30-day trend of tickets created", async () => {
    const org = await registerOrg(t.app);
    await create(org);
    await create(org);
    const old = await create(org);
    await t.database.db
      .update(tickets)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(tickets.id, old.id));
    await t.database.db
      .update(organizations)
      .set({ timezone: "UTC" })
      .where(eq(organizations.id, org.user.organizationId));
    const res = await call(org, "GET", "/api/organizations/stats");
    expect(res.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json()).toEqual({
      basicStats: { active_users: 1, total_users: 1 },
      ticketTrends: [{ date: today, tickets_created: 2 }],
    });
  });
});

describe("GET /api/users", () => {
  it("lists the caller's team only", async () => {
    const res = await call(a, "GET", "/api/users");
    expect(res.statusCode).toBe(200);
    expect(res.json().users).toEqual([
      expect.objectContaining({
        id: a.user.id,
        first_name: "Ada",
        role: "admin",
        status: "active",
        email: a.user.email,
      }),
    ]);
  });
});
