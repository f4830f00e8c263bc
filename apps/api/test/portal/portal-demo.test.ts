import { tmpdir } from "node:os";
import path from "node:path";
import type { CustomerTicketDetail, CustomerTicketListAnswer, PortalSessionAnswer } from "@cove/contract/portal.ts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { seedDemo } from "../../src/db/seed.ts";
import { DEMO_CUSTOMER, resetDemoCustomer, startDemoSession } from "../../src/modules/portal/portal-demo.ts";
import type { Database } from "../../src/platform/db.ts";
import { client, embeddedTestDatabase, errorAnswer } from "../helpers.ts";

// The demo is seeded into an empty database only, so this file always uses its own in-memory one (as kb-seed does).
let database: Database;
let app: FastifyInstance;
beforeAll(async () => {
  database = await embeddedTestDatabase();
  app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(tmpdir(), "cove-demo-outbox") },
    publicUrl: "http://cove.test",
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});
const t = {
  get app() {
    return app;
  },
  get database() {
    return database;
  },
};

const call = client(() => t.app);

describe("the demo customer portal (/customer-portal)", () => {
  it("says plainly when the install has no demo organization", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/portal/demo-session" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorAnswer("The demo customer portal is not set up on this server.", "NOT_FOUND"));
  });

  it("signs visitors in as the demo customer on real data, and start-up puts its data back", async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    expect(await resetDemoCustomer(t.database.db)).toBe(true);
    const res = await t.app.inject({ method: "POST", url: "/api/portal/demo-session" });
    expect(res.statusCode).toBe(200);
    const session = res.json() as PortalSessionAnswer;
    expect(session.customer).toMatchObject(DEMO_CUSTOMER);
    expect(session.organization.slug).toBe("acme");
    const list = (await call(session.token, "GET", "/api/portal/tickets")).json() as CustomerTicketListAnswer;
    expect(list.tickets.map((x) => x.status).sort()).toEqual(["open", "pending", "solved"]);
    const boots = list.tickets.find((x) => x.status === "open");
    // The demo ticket's internal note is not shown, nor counted.
    expect(boots?.comment_count).toBe(1);
    const solved = list.tickets.find((x) => x.status === "solved");
    const detail = (await call(session.token, "GET", `/api/portal/tickets/${solved?.id}`)).json()
      .ticket as CustomerTicketDetail;
    expect(detail.satisfaction).toMatchObject({ rating: null, can_change: true });
    expect(detail.comments.map((c) => c.from_customer)).toEqual([true, false, true]);

    // A visitor defaces it...
    await call(session.token, "PUT", "/api/portal/me", { name: "Defaced", company: null });
    await call(session.token, "POST", "/api/portal/tickets", { subject: "Spam", description: "Spam" });
    await call(session.token, "PUT", `/api/portal/tickets/${solved?.id}/satisfaction`, { rating: "bad" });
    // ...and the next start puts it back; the visitor's session is gone with it.
    await resetDemoCustomer(t.database.db);
    expect((await call(session.token, "GET", "/api/portal/me")).statusCode).toBe(401);
    const next = await startDemoSession(t.database.db);
    expect(next.customer).toMatchObject(DEMO_CUSTOMER);
    const again = (await call(next.token, "GET", "/api/portal/tickets")).json() as CustomerTicketListAnswer;
    expect(again.tickets.map((x) => x.subject).sort()).toEqual(list.tickets.map((x) => x.subject).sort());
    const rated = again.tickets.find((x) => x.status === "solved");
    const fresh = (await call(next.token, "GET", `/api/portal/tickets/${rated?.id}`)).json()
      .ticket as CustomerTicketDetail;
    expect(fresh.satisfaction?.rating).toBeNull();
    // The demo organization's staff see the demo customer's tickets like any other.
    const staff = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "demo@cove.example", password: "cove-demo-2026" },
    });
    const staffList = (await call(staff.json().token, "GET", "/api/tickets?search=Sleeping")).json();
    expect(staffList.tickets[0]).toMatchObject({ source: "portal", requester_name: DEMO_CUSTOMER.name });
  });
});
