import type { Role } from "@cove/contract/constants.ts";
import {
  type OrganizationStats,
  type Ticket,
  type TicketListAnswer,
  type TicketStats,
  ticketListQuery,
} from "@cove/contract/tickets.ts";
import { eq, inArray, sql, sum } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataVersions } from "../../src/db/schema/answer-cache.ts";
import { sessions } from "../../src/db/schema/auth.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { ticketComments, tickets } from "../../src/db/schema/tickets.ts";
import { listKey } from "../../src/modules/tickets/tickets.routes.ts";
import { createAnswerCache } from "../../src/platform/answer-cache.ts";
import { setClock } from "../../src/platform/clock.ts";
import type { Queryable } from "../../src/platform/db.ts";
import { type Principal, readDataStates } from "../../src/platform/tenancy.ts";
import {
  addMember,
  bearer,
  client,
  createTestApp,
  createTicket,
  errorAnswer,
  registerOrg,
  type TestApp,
  unique,
} from "../helpers.ts";

describe("createAnswerCache", () => {
  const body = (bytes: number) => Buffer.alloc(bytes, "x");

  it("keeps answers within its budget, dropping the least recently used first", () => {
    const cache = createAnswerCache(16_000);
    // Each entry: 900 bytes and a two-character key (4 bytes): 17 of them fit, the 18th pushes one out.
    for (let i = 0; i < 17; i++) cache.set(`k${i.toString(36)}`, body(900));
    expect(cache.stats()).toEqual({ entries: 17, bytes: 17 * 904, stored: 17 });
    expect(cache.get("k0")?.byteLength).toBe(900);
    cache.set("kh", body(900));
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k0")).toBeDefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(16_000);
  });

  it("replaces an answer stored twice under one key", () => {
    const cache = createAnswerCache(16_000);
    cache.set("k", body(100));
    cache.set("k", body(200));
    expect(cache.get("k")?.byteLength).toBe(200);
    expect(cache.stats()).toEqual({ entries: 1, bytes: 202, stored: 2 });
  });

  it("does not keep an answer larger than a sixteenth of its budget, and keeps nothing with a budget of 0", () => {
    const cache = createAnswerCache(16_000);
    cache.set("big", body(1_000));
    expect(cache.get("big")).toBeUndefined();
    const off = createAnswerCache(0);
    expect(off.enabled).toBe(false);
    off.set("k", body(10));
    expect(off.get("k")).toBeUndefined();
  });

  it("serves an answer with an end up to that instant of the app's clock, and does not keep one already past", () => {
    const at = Date.parse("2026-03-01T12:00:00Z");
    let clock = at;
    setClock(() => new Date(clock));
    try {
      const cache = createAnswerCache(16_000);
      cache.set("k", body(10), at + 60_000);
      cache.set("forever", body(10));
      clock = at + 60_000;
      expect(cache.get("k")?.byteLength).toBe(10);
      clock = at + 60_001;
      expect(cache.get("k")).toBeUndefined();
      expect(cache.get("forever")?.byteLength).toBe(10);
      cache.set("late", body(10), clock - 1);
      expect(cache.get("late")).toBeUndefined();
      expect(cache.stats().stored).toBe(2);
    } finally {
      setClock(null);
    }
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = { token: string };
const call = client(() => t.app);

async function read<T>(who: Session, url: string): Promise<T> {
  const res = await call(who, "GET", url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const list = (who: Session, query = "") => read<TicketListAnswer>(who, `/api/tickets${query}`);
const stats = (who: Session) => read<TicketStats>(who, "/api/tickets/stats/overview");
const detail = async (who: Session, id: string) => (await read<{ ticket: Ticket }>(who, `/api/tickets/${id}`)).ticket;

const create = (who: Session, subject = `Tent pole snapped ${unique()}`) => createTicket(t.app, who, { subject });

/**
 * Changes rows with the triggers off (as a bulk load does), so the data version stays as it was: an answer that
 * does not show such a change came from the cache.
 */
function behindTheTriggers(change: (db: Queryable) => Promise<unknown>) {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await change(tx);
  });
}

/** The organization's data version: the sum of its shards. */
async function versionOf(orgId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ version: sum(dataVersions.version) })
    .from(dataVersions)
    .where(eq(dataVersions.organizationId, orgId));
  return Number(row?.version ?? 0);
}

describe("cached answers", () => {
  it("answers a repeated read from the cache, and shows a change the moment it is made", async () => {
    const org = await registerOrg(t.app);
    const ticket = await create(org, "Tent pole snapped");
    const first = await list(org);
    const held = t.app.answers.stats().entries;

    await behindTheTriggers((db) =>
      db.update(tickets).set({ subject: "Edited behind the cache" }).where(eq(tickets.id, ticket.id)),
    );
    const again = await call(org, "GET", "/api/tickets");
    expect(again.json()).toEqual(first);
    expect(t.app.answers.stats().entries).toBe(held);
    // Sent as any answer is: JSON, with the security headers.
    expect(again.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(again.headers["content-security-policy"]).toContain("object-src 'none'");

    const changed = await call(org, "PUT", `/api/tickets/${ticket.id}`, { status: "pending" });
    expect(changed.statusCode).toBe(200);
    expect((await list(org)).tickets[0]).toMatchObject({ status: "pending", subject: "Edited behind the cache" });
  });

  it("shows every kind of change in lists, the ticket and the dashboard at once", async () => {
    const org = await registerOrg(t.app);
    const member = await addMember(t.database, org.user.organizationId, { firstName: "Marco" });
    const older = await create(org);
    const newer = await create(org);
    // Read everything once, so each check below would find a stored answer if the change had not replaced it.
    const readAll = async () => ({
      list: await list(org),
      urgent: await list(org, "?priority=urgent"),
      mine: await list(member, "?assignee_id=me"),
      stats: await stats(org),
      ticket: await detail(org, older.id),
      team: await read<OrganizationStats>(org, "/api/organizations/stats"),
    });
    let now = await readAll();
    expect(now.list.tickets.map((x) => x.id)).toEqual([newer.id, older.id]);

    await call(org, "POST", `/api/tickets/${older.id}/comments`, { body: "A new pole is on its way." });
    now = await readAll();
    expect(now.list.tickets.map((x) => x.id)).toEqual([older.id, newer.id]);
    expect(now.ticket.comments.map((c) => c.body)).toEqual(["A new pole is on its way."]);

    await call(org, "PUT", `/api/tickets/${older.id}`, { priority: "urgent", assignee_id: member.id });
    now = await readAll();
    expect(now.urgent.tickets.map((x) => x.id)).toEqual([older.id]);
    expect(now.stats).toMatchObject({ urgent_tickets: 1, unassigned_tickets: 1 });
    expect(now.mine.tickets.map((x) => x.assignee_first_name)).toEqual(["Marco"]);
    expect(now.ticket.activity.map((a) => a.type)).toEqual(["created", "priority", "assignee"]);

    // The assignee renames themselves: the lists that show the name follow.
    await call(member, "PUT", "/api/auth/profile", { firstName: "Marek", lastName: "Alvarez" });
    now = await readAll();
    expect(now.list.tickets[0]?.assignee_first_name).toBe("Marek");

    await create(org);
    now = await readAll();
    expect(now.list.pagination.total).toBe(3);
    expect(now.stats.total_tickets).toBe(3);
    expect(now.team.ticketTrends.reduce((sum, d) => sum + d.tickets_created, 0)).toBe(3);

    // An admin deactivates the member: the team figures change, and so does who may read at all.
    await call(org, "PUT", `/api/users/${member.id}`, { status: "inactive" });
    now = { ...now, team: await read<OrganizationStats>(org, "/api/organizations/stats") };
    expect(now.team.basicStats.active_users).toBe(1);

    // Changes made straight in the database, outside any request, count as much.
    await t.database.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, newer.id));
    expect((await stats(org)).open_tickets).toBe(now.stats.open_tickets - 1);
    expect((await detail(org, older.id)).comments).toHaveLength(1);
    await t.database.db.insert(ticketComments).values({
      organizationId: org.user.organizationId,
      ticketId: older.id,
      authorName: "Imported",
      authorEmail: "import@example.com",
      body: "From the old help desk.",
    });
    expect((await detail(org, older.id)).comments.map((c) => c.body)).toEqual([
      "A new pole is on its way.",
      "From the old help desk.",
    ]);
  });

  it("checks the caller's session on every read, cached or not", async () => {
    const org = await registerOrg(t.app);
    const member = await addMember(t.database, org.user.organizationId);
    await create(org);
    await list(org);
    await list(member);

    const loggedOut = await registerOrg(t.app);
    await list(loggedOut);
    expect((await call(loggedOut, "POST", "/api/auth/logout")).statusCode).toBeLessThan(300);
    const afterLogout = await call(loggedOut, "GET", "/api/tickets");
    expect(afterLogout.statusCode).toBe(401);

    await call(org, "PUT", `/api/users/${member.id}`, { status: "inactive" });
    for (const url of ["/api/tickets", "/api/tickets/stats/overview", "/api/organizations/stats"]) {
      const res = await call(member, "GET", url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe("UNAUTHORIZED");
    }
  });

  it("checks each of the requests that arrive together on its own, though they share a statement", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const member = await addMember(t.database, a.user.organizationId);
    await create(a, "Refund for a double charge");
    await create(b, "Shipping to Canada");
    await create(b, "Shipping to Mexico");
    for (const who of [a, b, member]) await list(who);
    await call(a, "PUT", `/api/users/${member.id}`, { status: "inactive" });

    const callers = [a, member, b, a, b, member, b, a];
    const answers = await Promise.all(callers.map((who) => call(who, "GET", "/api/tickets")));
    expect(answers.map((res) => res.statusCode)).toEqual(callers.map((who) => (who === member ? 401 : 200)));
    answers.forEach((res, i) => {
      if (callers[i] === member) return;
      const subjects = (res.json() as TicketListAnswer).tickets.map((x) => x.subject);
      expect(subjects).toEqual(
        callers[i] === a ? ["Refund for a double charge"] : ["Shipping to Mexico", "Shipping to Canada"],
      );
    });
  });

  it("reads the states of many sessions in one statement, each at its own place", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const member = await addMember(t.database, a.user.organizationId);
    await create(b);
    const principal = async (userId: string, role: Role): Promise<Principal> => {
      const [session] = await t.database.db.select().from(sessions).where(eq(sessions.userId, userId));
      if (!session) throw new Error("no session");
      return { kind: "staff", orgId: session.organizationId, userId, role, sessionId: session.id };
    };
    const pa = await principal(a.user.id, "admin");
    const pb = await principal(b.user.id, "admin");
    const pm = await principal(member.id, "agent");
    await call(a, "PUT", `/api/users/${member.id}`, { status: "inactive" });
    // Another organization's session id under a's organization counts for nothing.
    const mixed = { ...pb, orgId: pa.orgId };
    const states = await readDataStates(t.database.db, [pb, pm, pa, mixed, pb]);
    expect(states.map((s) => s?.version ?? null)).toEqual([
      String(await versionOf(pb.orgId)),
      null,
      String(await versionOf(pa.orgId)),
      null,
      String(await versionOf(pb.orgId)),
    ]);
    expect(states[0]).toMatchObject({ role: "admin", day: expect.stringMatching(/ \d{4}-\d{2}-\d{2}$/) });
    expect(await versionOf(pa.orgId)).not.toBe(await versionOf(pb.orgId));
  });

  it("never answers one organization with another's stored answer", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const refund = await create(a, "Refund for a double charge");
    await create(b, "Shipping to Canada");
    for (const who of [a, b]) {
      await list(who);
      await list(who, "?search=refund");
      await stats(who);
    }
    // Both organizations went through the same steps, so their data versions are equal: only the organization in
    // the key keeps their stored answers apart.
    expect(await versionOf(a.user.organizationId)).toBe(await versionOf(b.user.organizationId));
    const [listA, listB] = [await list(a), await list(b)];
    expect(listA.tickets.map((x) => x.subject)).toEqual(["Refund for a double charge"]);
    expect(listB.tickets.map((x) => x.subject)).toEqual(["Shipping to Canada"]);
    expect((await list(b, "?search=refund")).tickets).toEqual([]);
    expect((await stats(b)).total_tickets).toBe(1);

    await detail(a, refund.id);
    const foreign = await call(b, "GET", `/api/tickets/${refund.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(errorAnswer("Ticket not found", "NOT_FOUND"));
  });

  it("computes an answer once for the requests that ask for it together", async () => {
    const org = await registerOrg(t.app);
    await create(org);
    const before = t.app.answers.stats().stored;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(org, "GET", "/api/tickets?priority=normal")),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(t.app.answers.stats().stored).toBe(before + 1);
  });

  it("reads assignee_id=me as each caller's own list", async () => {
    const org = await registerOrg(t.app);
    const member = await addMember(t.database, org.user.organizationId);
    const mine = await create(org);
    const theirs = await create(org);
    await call(org, "PUT", `/api/tickets/${mine.id}`, { assignee_id: org.user.id });
    await call(org, "PUT", `/api/tickets/${theirs.id}`, { assignee_id: member.id });
    expect((await list(org, "?assignee_id=me")).tickets.map((x) => x.id)).toEqual([mine.id]);
    expect((await list(member, "?assignee_id=me")).tickets.map((x) => x.id)).toEqual([theirs.id]);
  });

  it("keeps a day's figures for that day in the organization's time zone only", async () => {
    const org = await registerOrg(t.app);
    await create(org);
    await stats(org);
    const held = t.app.answers.stats().entries;
    await stats(org);
    expect(t.app.answers.stats().entries).toBe(held);
    // Another time zone has other day and week boundaries: the figures are counted again.
    await t.database.db
      .update(organizations)
      .set({ timezone: "Pacific/Kiritimati" })
      .where(eq(organizations.id, org.user.organizationId));
    await stats(org);
    expect(t.app.answers.stats().entries).toBe(held + 1);
  });
});

describe("data versions", () => {
  it("move once per transaction and organization, whatever the number of rows", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const ids = [(await create(a)).id, (await create(a)).id, (await create(b)).id];
    const before = [await versionOf(a.user.organizationId), await versionOf(b.user.organizationId)];
    await t.database.db.update(tickets).set({ priority: "low" }).where(inArray(tickets.id, ids));
    const after = [await versionOf(a.user.organizationId), await versionOf(b.user.organizationId)];
    expect(after).toEqual([(before[0] ?? 0) + 1, (before[1] ?? 0) + 1]);
  });

  it("let an organization and all its tickets be deleted", async () => {
    const org = await registerOrg(t.app);
    const ticket = await create(org);
    await call(org, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Looking into it." });
    await t.database.db.delete(organizations).where(eq(organizations.id, org.user.organizationId));
    const left = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, ticket.id));
    expect(left).toEqual([]);
  });
});

describe("with the cache turned off", () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ answerCacheBytes: 0 });
  });
  afterAll(() => off.close());

  it("computes every answer afresh", async () => {
    const org = await registerOrg(off.app);
    const ticket = await createTicket(off.app, org, {
      subject: "Stove",
      description: "No flame.",
      requester_name: "Li",
      requester_email: "li@example.com",
    });
    const get = async () =>
      (await off.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(org.token) })).json()
        .tickets as Ticket[];
    expect((await get())[0]?.subject).toBe("Stove");
    await off.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(tickets).set({ subject: "Camp stove" }).where(eq(tickets.id, ticket.id));
    });
    expect((await get())[0]?.subject).toBe("Camp stove");
    expect(off.app.answers.stats().entries).toBe(0);
  });
});

describe("the ticket list's cache key", () => {
  /** Two different valid values of every field of the list's query: a new field fails here until it is added. */
  const samples: Record<string, [unknown, unknown]> = {
    page: [1, 2],
    limit: [25, 50],
    status: ["open", "solved"],
    priority: ["low", "urgent"],
    assignee_id: ["unassigned", "3f0c4a52-7c1e-4a8e-9b7d-2a6f1d9e5b10"],
    search: ["refund", "shipping"],
    sort: ["updated", "sla_due"],
    cursor: [undefined, "WyJ0aWNrZXRzOnVwZGF0ZWQiLCIyMDI2LTAzLTAxVDEwOjAwOjAwWiIsIjciXQ"],
  };
  const who = { userId: "8a3c5f5e-8d0e-4a57-9d43-1f6b2f0c9a11" } as Principal;
  const keyOf = (query: Record<string, unknown>) =>
    JSON.stringify(listKey({ query: ticketListQuery.parse(query) } as FastifyRequest, who));

  it("changes with every field of the validated query", () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(ticketListQuery.shape).sort());
    const base = Object.fromEntries(Object.entries(samples).map(([field, [first]]) => [field, first]));
    for (const [field, [, other]] of Object.entries(samples)) {
      expect(keyOf({ ...base, [field]: other }), field).not.toBe(keyOf(base));
    }
  });

  it("reads Mine as the caller, so two agents' Mine never share an answer", () => {
    expect(keyOf({ assignee_id: "me" })).toBe(keyOf({ assignee_id: who.userId }));
    const other = { userId: "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d" } as Principal;
    const mine = (p: Principal) =>
      JSON.stringify(listKey({ query: ticketListQuery.parse({ assignee_id: "me" }) } as FastifyRequest, p));
    expect(mine(who)).not.toBe(mine(other));
  });
});
