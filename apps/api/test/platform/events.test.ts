import type { DomainEvent } from "@cove/contract/events.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../src/db/schema/events.ts";
import { queryRows } from "../../src/platform/db.ts";
import { purgeOutbox } from "../../src/platform/events.ts";
import { withTenant } from "../../src/platform/tenancy.ts";
import { addMember, bearer, createTestApp, createTicket, registerOrg, type TestApp } from "../helpers.ts";

/** Attempts of the test's durable handler, by ticket id: it fails twice, then succeeds. */
const attempts = new Map<string, number>();
const handled: DomainEvent<"ticket.created">[] = [];
/** Events this instance heard through LISTEN. */
const heard: DomainEvent[] = [];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    setup: (app) => {
      app.events.onCommitted(
        "test-flaky",
        ["ticket.created"],
        async (event) => {
          const n = (attempts.get(event.data.ticket_id) ?? 0) + 1;
          attempts.set(event.data.ticket_id, n);
          if (n < 3) throw new Error(`flaky handler, attempt ${n}`);
          handled.push(event);
        },
        { retryDelaySeconds: 1, retryLimit: 4 },
      );
      app.events.listen((event) => heard.push(event));
    },
  });
});
afterAll(() => t.close());

const outbox = (orgId: string) =>
  t.database.db
    .select({
      id: events.id,
      type: events.type,
      actorKind: events.actorKind,
      actorId: events.actorId,
      data: events.data,
    })
    .from(events)
    .where(eq(events.organizationId, orgId))
    .orderBy(events.id);

async function waitFor<T>(read: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("events are written with the change that caused them", () => {
  it("records ticket creation, changes and comments, with the actor and the fields that changed", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const ticket = await createTicket(t.app, org);
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: bearer(org.token),
      payload: { status: "pending", assignee_id: agent.id },
    });
    expect(put.statusCode).toBe(200);
    await t.app.inject({
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      headers: bearer(agent.token),
      payload: { body: "On it", is_public: false },
    });
    const rows = await outbox(org.user.organizationId);
    // The requester is a new customer of the organization: their contact comes first.
    expect(rows.map((r) => r.type)).toEqual([
      "contact.created",
      "ticket.created",
      "ticket.updated",
      "ticket.status_changed",
      "ticket.assigned",
      "notification.created",
      "comment.added",
    ]);
    expect(rows[1]).toMatchObject({ actorKind: "staff", actorId: org.user.id });
    expect(rows[2]?.data).toEqual({
      ticket_id: ticket.id,
      changes: { status: { from: "open", to: "pending" }, assignee_id: { from: null, to: agent.id } },
    });
    expect(rows[6]).toMatchObject({ actorKind: "staff", actorId: agent.id, data: { is_public: false } });
    // Monotonic ids.
    const ids = rows.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it("emits nothing when the change rolls back, and nothing reaches the listeners", async () => {
    const org = await registerOrg(t.app);
    const before = (await outbox(org.user.organizationId)).length;
    const heardBefore = heard.length;
    await expect(
      withTenant(t.database.db, { orgId: org.user.organizationId, userId: org.user.id, role: "admin" }, async (ctx) => {
        await ctx.emit("member.invited", { user_id: org.user.id });
        throw new Error("the change fails after emitting");
      }),
    ).rejects.toThrow("the change fails");
    expect((await outbox(org.user.organizationId)).length).toBe(before);
    // A committed event right after is heard; the rolled-back one never is.
    const ticket = await createTicket(t.app, org);
    await waitFor(() => heard.find((e) => e.type === "ticket.created" && e.data.ticket_id === ticket.id));
    expect(heard.slice(heardBefore).some((e) => e.type === "member.invited")).toBe(false);
  });

  it("refuses an event whose data does not match its declared shape, and the change with it", async () => {
    const org = await registerOrg(t.app);
    await expect(
      withTenant(t.database.db, { orgId: org.user.organizationId, userId: org.user.id, role: "admin" }, (ctx) =>
        // @ts-expect-error: a wrong shape, as a programming error would send
        ctx.emit("ticket.created", { ticket_id: "not-a-uuid" }),
      ),
    ).rejects.toThrow();
    expect(await outbox(org.user.organizationId)).toHaveLength(0);
  });

  it("confines the outbox by row-level security like every tenant table", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    await createTicket(t.app, b);
    const seen = await withTenant(
      t.database.db,
      { orgId: a.user.organizationId, userId: a.user.id, role: "admin" },
      (ctx) => queryRows<{ organization_id: string }>(ctx.db, sql`select organization_id from events`),
    );
    expect(seen.every((r) => r.organization_id === a.user.organizationId)).toBe(true);
  });
});

describe("the outbox", () => {
  it("keeps events for 30 days and purges older ones", async () => {
    const org = await registerOrg(t.app);
    const ticket = await createTicket(t.app, org);
    const orgId = org.user.organizationId;
    const [recent] = await outbox(orgId);
    await t.database.db
      .update(events)
      .set({ createdAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(and(eq(events.organizationId, orgId), inArray(events.type, ["contact.created", "ticket.created"])));
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: bearer(org.token),
      payload: { priority: "high" },
    });
    expect(await purgeOutbox(t.database.executeSql)).toBeGreaterThanOrEqual(1);
    const left = await outbox(orgId);
    expect(left.map((e) => e.type)).toEqual(["ticket.updated"]);
    expect(left.some((e) => e.id === recent?.id)).toBe(false);
  });
});

describe("durable handlers", () => {
  it("retry a failing handler until it succeeds, while the request that emitted the event succeeded at once", async () => {
    const org = await registerOrg(t.app);
    const ticket = await createTicket(t.app, org);
    const done = await waitFor(() => handled.find((e) => e.data.ticket_id === ticket.id), 25_000);
    expect(attempts.get(ticket.id)).toBe(3);
    expect(done).toMatchObject({ type: "ticket.created", organization_id: org.user.organizationId });
  });
});

describe("LISTEN delivers committed events", () => {
  it("hears each committed event once, in commit order for one organization", async () => {
    const org = await registerOrg(t.app);
    const start = heard.length;
    const first = await createTicket(t.app, org);
    const second = await createTicket(t.app, org);
    await waitFor(() => heard.find((e) => e.type === "ticket.created" && e.data.ticket_id === second.id));
    const mine = heard.slice(start).filter((e) => e.organization_id === org.user.organizationId);
    // The first ticket's requester is a new contact; the second ticket's is the same one.
    expect(mine.map((e) => e.type)).toEqual(["contact.created", "ticket.created", "ticket.created"]);
    expect(mine.flatMap((e) => (e.type === "ticket.created" ? [e.data.ticket_id] : []))).toEqual([first.id, second.id]);
    const [row] = await t.database.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organizationId, org.user.organizationId), eq(events.type, "ticket.created")))
      .orderBy(events.id)
      .limit(1);
    expect(mine.find((e) => e.type === "ticket.created")?.id).toBe(row?.id);
  });
});
