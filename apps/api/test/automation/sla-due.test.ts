import type { Notification } from "@cove/contract/notifications.ts";
import type { SlaTargetsAnswer } from "@cove/contract/sla.ts";
import type { TicketListAnswer, TicketSummary } from "@cove/contract/tickets.ts";
import { afterEach, describe, expect, it } from "vitest";
import { notifySlaDue } from "../../src/modules/automation/sla.notices.ts";
import { runSlaRecomputes } from "../../src/modules/automation/sla.ts";
import { setClock } from "../../src/platform/clock.ts";
import {
  addMember,
  client,
  naughtySample,
  createTicket as newTicket,
  registerOrg,
  testAppForFile,
} from "../helpers.ts";

const t = testAppForFile();
afterEach(() => setClock(null));

const HOUR = 3_600_000;
const call = client(() => t.app);

const createTicket = (token: string, priority: string, subject = "The stove will not light") =>
  newTicket(t.app, token, { subject, priority, description: "Since this morning." });

const list = async (token: string, query = "") => {
  const res = await call(token, "GET", `/api/tickets?limit=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TicketListAnswer;
};
const inList = async (token: string, id: string, query = "") =>
  (await list(token, query)).tickets.find((x) => x.id === id) as TicketSummary;

const calendarTargets = {
  targets: [
    { priority: "urgent", first_response_hours: 1, resolution_hours: 4, business_hours: false },
    { priority: "high", first_response_hours: 4, resolution_hours: 24, business_hours: false },
  ],
};
const at = (ms: number) => {
  const fixed = Date.now() + ms;
  setClock(() => new Date(fixed));
};
const plus = (iso: string, hours: number) => new Date(new Date(iso).getTime() + hours * HOUR).toISOString();

describe("SLA due times in the ticket list", () => {
  it("show the next due time: first response until the team answers, then resolution, none once solved", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    expect((await call(org.token, "PUT", "/api/automation/sla", calendarTargets)).statusCode).toBe(200);
    const urgent = await createTicket(org.token, "urgent");
    // The ticket's own answer already carries it, and so does the list.
    expect(urgent.sla_due).toEqual({ kind: "first_response", due_at: plus(urgent.created_at, 1) });
    expect((await inList(agent.token, urgent.id)).sla_due).toEqual(urgent.sla_due);
    const normal = await createTicket(org.token, "normal");
    expect((await inList(agent.token, normal.id)).sla_due).toBeNull();

    // An internal note is no answer; a customer-facing reply from the team is.
    await call(agent.token, "POST", `/api/tickets/${urgent.id}/comments`, { body: "Looking", is_public: false });
    expect((await inList(agent.token, urgent.id)).sla_due?.kind).toBe("first_response");
    await call(agent.token, "POST", `/api/tickets/${urgent.id}/comments`, { body: "On it", is_public: true });
    expect((await inList(agent.token, urgent.id)).sla_due).toEqual({
      kind: "resolution",
      due_at: plus(urgent.created_at, 4),
    });

    // A change of priority moves the due times; solving ends them, reopening brings the resolution back.
    await call(agent.token, "PUT", `/api/tickets/${urgent.id}`, { priority: "high" });
    expect((await inList(agent.token, urgent.id)).sla_due?.due_at).toBe(plus(urgent.created_at, 24));
    await call(agent.token, "PUT", `/api/tickets/${normal.id}`, { priority: "urgent" });
    expect((await inList(agent.token, normal.id)).sla_due?.due_at).toBe(plus(normal.created_at, 1));
    await call(agent.token, "PUT", `/api/tickets/${urgent.id}`, { status: "solved" });
    expect((await inList(agent.token, urgent.id)).sla_due).toBeNull();
    await call(agent.token, "PUT", `/api/tickets/${urgent.id}`, { status: "open" });
    expect((await inList(agent.token, urgent.id)).sla_due?.kind).toBe("resolution");

    // Another organization sees none of it.
    const other = await registerOrg(t.app);
    expect((await list(other.token, "&sort=sla_due")).tickets).toEqual([]);
    expect((await call(other.token, "GET", `/api/tickets/${urgent.id}`)).statusCode).toBe(404);
  });

  it("sort by the soonest due time, tickets with none last, with filters and searches", async () => {
    const org = await registerOrg(t.app);
    await call(org.token, "PUT", "/api/automation/sla", calendarTargets);
    const none = await createTicket(org.token, "low", "Lamp sort case");
    const high = await createTicket(org.token, "high", "Lamp sort case");
    const urgent = await createTicket(org.token, "urgent", "Lamp sort case");
    const solved = await createTicket(org.token, "urgent", "Lamp sort case");
    await call(org.token, "PUT", `/api/tickets/${solved.id}`, { status: "solved" });
    const latest = await createTicket(org.token, "normal", "Lamp sort case");

    const numbers = (answer: TicketListAnswer) => answer.tickets.map((x) => x.ticket_number);
    // Due first (urgent in 1 h, high in 4 h), then the rest most recently updated first.
    expect(numbers(await list(org.token, "&sort=sla_due"))).toEqual(
      [urgent, high, latest, solved, none].map((x) => x.ticket_number),
    );
    expect(numbers(await list(org.token))).toEqual([latest, solved, urgent, high, none].map((x) => x.ticket_number));
    expect(numbers(await list(org.token, "&sort=sla_due&status=open"))).toEqual(
      [urgent, high, latest, none].map((x) => x.ticket_number),
    );
    expect(numbers(await list(org.token, "&sort=sla_due&search=lamp"))).toEqual(
      [urgent, high, latest, solved, none].map((x) => x.ticket_number),
    );
    // Pages follow the same order.
    const page2 = await call(org.token, "GET", "/api/tickets?sort=sla_due&limit=2&page=2");
    expect(numbers(page2.json())).toEqual([latest, solved].map((x) => x.ticket_number));
    const bad = await call(org.token, "GET", "/api/tickets?sort=due");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("sort must be one of updated, sla_due");
    // A Cove addition, documented in the OpenAPI document with its values.
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<
        string,
        { get?: { parameters?: { name: string; description?: string; schema?: { enum?: string[] } }[] } }
      >;
    };
    const sort = doc.paths["/api/tickets"]?.get?.parameters?.find((p) => p.name === "sort");
    expect(sort?.schema?.enum).toEqual(["updated", "sla_due"]);
    expect(sort?.description).toContain("soonest SLA due time first");
  });

  it("follow a change of targets or business hours: open tickets are worked out again, solved ones when reopened", async () => {
    const org = await registerOrg(t.app);
    await call(org.token, "PUT", "/api/automation/sla", calendarTargets);
    const open = await createTicket(org.token, "urgent");
    const done = await createTicket(org.token, "urgent");
    await call(org.token, "PUT", `/api/tickets/${done.id}`, { status: "solved" });
    // Answered from the cache (same data version) until the tickets change.
    expect((await inList(org.token, open.id)).sla_due?.due_at).toBe(plus(open.created_at, 1));

    const put = await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 2, resolution_hours: 6, business_hours: false }],
    });
    expect(put.statusCode, put.body).toBe(200);
    await runSlaRecomputes(t.database.db);
    expect((await inList(org.token, open.id)).sla_due?.due_at).toBe(plus(open.created_at, 2));
    // A solved ticket was left as it was; reopened, it is held to the targets of now.
    await call(org.token, "PUT", `/api/tickets/${done.id}`, { status: "open" });
    expect((await inList(org.token, done.id)).sla_due?.due_at).toBe(plus(done.created_at, 2));

    // Every day, all day, in business hours: the same as calendar hours.
    const allWeek = await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 3, resolution_hours: 6, business_hours: true }],
      business_hours: { days: [0, 1, 2, 3, 4, 5, 6], opens: "00:00", closes: "23:59" },
    });
    expect(allWeek.json()).toMatchObject({
      business_hours: { days: [0, 1, 2, 3, 4, 5, 6], opens: "00:00", closes: "23:59" },
      timezone: "UTC",
    });
    await runSlaRecomputes(t.database.db);
    const due = new Date((await inList(org.token, open.id)).sla_due?.due_at ?? 0).getTime();
    const created = new Date(open.created_at).getTime();
    // Three working hours, with at most a minute a day (23:59-00:00) closed.
    expect(due - created).toBeGreaterThanOrEqual(3 * HOUR);
    expect(due - created).toBeLessThanOrEqual(3 * HOUR + 60_000);
  });
});

describe("business hours", () => {
  it("are read in the organization's time zone, and a new time zone moves open tickets' due times", async () => {
    const org = await registerOrg(t.app);
    // Every day, 00:00-02:00: a ticket's 1 business hour ends in the organization's night.
    await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 1, resolution_hours: null, business_hours: true }],
      business_hours: { days: [0, 1, 2, 3, 4, 5, 6], opens: "00:00", closes: "02:00" },
    });
    await runSlaRecomputes(t.database.db);
    const ticket = await createTicket(org.token, "urgent");
    const localHour = (iso: string, timeZone: string) =>
      Number(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(new Date(iso)));
    const dueIn = async (timeZone: string) => {
      const due = (await inList(org.token, ticket.id)).sla_due?.due_at ?? "";
      expect(localHour(due, timeZone)).toBeLessThanOrEqual(2);
      return due;
    };
    const utc = await dueIn("UTC");
    const moved = await call(org.token, "PUT", "/api/settings/general", { timezone: "Pacific/Kiritimati" });
    expect(moved.statusCode, moved.body).toBe(200);
    await runSlaRecomputes(t.database.db);
    const kiritimati = await dueIn("Pacific/Kiritimati");
    // UTC+14: that window is 10:00-12:00 UTC, which never meets 00:00-02:00 UTC.
    expect(kiritimati).not.toBe(utc);
  });

  it("are set by admins where the targets are, validated, and read by agents", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const first = (await call(agent.token, "GET", "/api/automation/sla")).json() as SlaTargetsAnswer;
    expect(first.business_hours).toEqual({ days: [1, 2, 3, 4, 5], opens: "09:00", closes: "17:00" });
    const ok = await call(org.token, "PUT", "/api/automation/sla", {
      targets: [],
      business_hours: { days: [6, 1, 2], opens: "08:30", closes: "18:00" },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().business_hours).toEqual({ days: [1, 2, 6], opens: "08:30", closes: "18:00" });
    const bad: [object, string][] = [
      [
        { days: [1], opens: "09:00", closes: "09:00" },
        "Closing time must differ from opening time (a closing time before it runs past midnight)",
      ],
      [{ days: [], opens: "09:00", closes: "17:00" }, "Choose at least one working day"],
      [{ days: [1, 1], opens: "09:00", closes: "17:00" }, "Each working day only once"],
      [
        { days: [7], opens: "09:00", closes: "17:00" },
        "Each day must be a weekday number from 0 (Sunday) to 6 (Saturday)",
      ],
      [{ days: [1], opens: "9am", closes: "17:00" }, "Opening time must be a time such as 09:00 (24-hour clock)"],
      [{ days: [1], opens: "09:00", closes: "24:00" }, "Closing time must be a time such as 09:00 (24-hour clock)"],
    ];
    for (const [hours, message] of bad) {
      const res = await call(org.token, "PUT", "/api/automation/sla", { targets: [], business_hours: hours });
      expect(res.statusCode, JSON.stringify(hours)).toBe(400);
      expect(res.json().error).toBe(message);
    }
    for (const text of naughtySample().slice(0, 40)) {
      const res = await call(org.token, "PUT", "/api/automation/sla", {
        targets: [],
        business_hours: { days: [1], opens: text, closes: "17:00" },
      });
      expect(res.statusCode, JSON.stringify(text)).toBe(400);
    }
    const agentPut = await call(agent.token, "PUT", "/api/automation/sla", {
      targets: [],
      business_hours: { days: [1], opens: "09:00", closes: "17:00" },
    });
    expect(agentPut.statusCode).toBe(403);
    expect(((await call(agent.token, "GET", "/api/automation/sla")).json() as SlaTargetsAnswer).business_hours).toEqual(
      { days: [1, 2, 6], opens: "08:30", closes: "18:00" },
    );
    // Another organization keeps the default.
    const other = await registerOrg(t.app);
    expect((await call(other.token, "GET", "/api/automation/sla")).json().business_hours.opens).toBe("09:00");
  });

  it("take business hours that span midnight, counted from each working day's evening into the next morning", async () => {
    const org = await registerOrg(t.app);
    const put = await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "high", first_response_hours: 9, resolution_hours: 2, business_hours: true }],
      business_hours: { days: [1, 2, 3, 4, 5], opens: "22:00", closes: "06:00" },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().business_hours).toEqual({ days: [1, 2, 3, 4, 5], opens: "22:00", closes: "06:00" });
    const ticket = await createTicket(org.token, "high");
    // Created Fri 2026-03-27 23:00 (UTC, the organization's zone) and worked out again.
    await t.database.executeSql("update tickets set created_at = $2 where id = $1", [
      ticket.id,
      "2026-03-27T23:00:00Z",
    ]);
    await t.database.executeSql("insert into sla_recomputes (organization_id) values ($1) on conflict do nothing", [
      org.user.organizationId,
    ]);
    await runSlaRecomputes(t.database.db);
    const [row] = (
      await t.database.executeSql("select first_response_due_at, resolution_due_at from tickets where id = $1", [
        ticket.id,
      ])
    ).rows as { first_response_due_at: Date | string; resolution_due_at: Date | string }[];
    // Friday's night to Sat 06:00 is 7 hours; no Saturday or Sunday night; Monday's night opens at 22:00: 2 more.
    expect(new Date(row?.first_response_due_at ?? 0).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    // 2 hours: Fri 23:00 -> Sat 01:00, in Friday's night.
    expect(new Date(row?.resolution_due_at ?? 0).toISOString()).toBe("2026-03-28T01:00:00.000Z");
  });
});

describe("SLA notifications", () => {
  const bell = async (token: string) =>
    ((await call(token, "GET", "/api/notifications")).json().notifications as Notification[]).filter((n) =>
      n.type.startsWith("sla_"),
    );

  it("tell the assignee once when close to breach and once when breached, the admins when unassigned", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const admin2 = await addMember(t.database, org.user.organizationId, { role: "admin" });
    await call(org.token, "PUT", "/api/automation/sla", calendarTargets);
    const mine = await createTicket(org.token, "urgent", "Assigned and due");
    await call(org.token, "PUT", `/api/tickets/${mine.id}`, { assignee_id: agent.id });
    const nobodys = await createTicket(org.token, "urgent", "Nobody has it");
    const before = await bell(agent.token);

    await notifySlaDue(t.database.db);
    expect(await bell(agent.token)).toEqual(before);

    at(50 * 60_000); // 50 minutes: less than a fifth of the hour left
    await notifySlaDue(t.database.db);
    await notifySlaDue(t.database.db);
    const warned = await bell(agent.token);
    expect(warned.map((n) => [n.type, n.title, n.excerpt, n.link])).toEqual([
      [
        "sla_warning",
        `#${mine.ticket_number} Assigned and due`,
        "First response is close to breach",
        `/tickets/${mine.id}`,
      ],
    ]);
    for (const token of [org.token, admin2.token]) {
      expect((await bell(token)).map((n) => [n.type, n.ticket_id])).toEqual([["sla_warning", nobodys.id]]);
    }

    at(2 * HOUR);
    await notifySlaDue(t.database.db);
    await notifySlaDue(t.database.db);
    expect((await bell(agent.token)).map((n) => [n.type, n.excerpt])).toEqual([
      ["sla_breached", "First response breached"],
      ["sla_warning", "First response is close to breach"],
    ]);
    expect((await bell(admin2.token)).map((n) => n.type)).toEqual(["sla_breached", "sla_warning"]);

    // Answered: the resolution is next; found already breached, it is told once, as breached only.
    await call(agent.token, "POST", `/api/tickets/${mine.id}/comments`, {
      body: "Sorry for the wait",
      is_public: true,
    });
    at(5 * HOUR);
    await notifySlaDue(t.database.db);
    expect((await bell(agent.token)).map((n) => [n.type, n.excerpt])).toEqual([
      ["sla_breached", "Resolution breached"],
      ["sla_breached", "First response breached"],
      ["sla_warning", "First response is close to breach"],
    ]);
    // Solved tickets are left alone; nobody of another organization hears of any of it.
    await call(org.token, "PUT", `/api/tickets/${nobodys.id}`, { status: "solved" });
    const adminCount = (await bell(admin2.token)).length;
    at(10 * HOUR);
    await notifySlaDue(t.database.db);
    expect(await bell(admin2.token)).toHaveLength(adminCount);
    const other = await registerOrg(t.app);
    expect(await bell(other.token)).toEqual([]);
  });
});
