import type { SlaTarget, TicketSlaAnswer } from "@cove/contract/sla.ts";
import { afterEach, describe, expect, it } from "vitest";
import { addHours, businessMinutesCounter, DEFAULT_WINDOW } from "../../src/modules/automation/sla.ts";
import { setClock } from "../../src/platform/clock.ts";
import { addMember, client, createTicket as newTicket, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();
afterEach(() => setClock(null));

const HOUR = 3_600_000;
const call = client(() => t.app);

const createTicket = (token: string, priority = "urgent") =>
  newTicket(t.app, token, { subject: "The stove will not light", priority, description: "Since this morning." });

const slaOf = async (token: string, id: string) => {
  const res = await call(token, "GET", `/api/tickets/${id}/sla`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TicketSlaAnswer;
};
const at = (ms: number) => {
  const fixed = Date.now() + ms;
  setClock(() => new Date(fixed));
};

describe("SLA targets", () => {
  it("are set per priority by admins, validated, and every priority is answered", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const empty = (await call(org.token, "GET", "/api/automation/sla")).json().targets as SlaTarget[];
    expect(empty.map((x) => [x.priority, x.first_response_hours, x.resolution_hours])).toEqual([
      ["low", null, null],
      ["normal", null, null],
      ["high", null, null],
      ["urgent", null, null],
    ]);
    const put = await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 1, resolution_hours: 4, business_hours: false }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().targets[3]).toEqual({
      priority: "urgent",
      first_response_hours: 1,
      resolution_hours: 4,
      business_hours: false,
    });
    const bad: [object, string][] = [
      [
        { targets: [{ priority: "urgent", first_response_hours: -1, resolution_hours: 4, business_hours: false }] },
        "First response must be more than 0 hours",
      ],
      [
        {
          targets: [
            { priority: "low", first_response_hours: 1, resolution_hours: 4, business_hours: false },
            { priority: "low", first_response_hours: 2, resolution_hours: 4, business_hours: false },
          ],
        },
        "Send at most one target per priority",
      ],
      [
        { targets: [{ priority: "asap", first_response_hours: 1, resolution_hours: 4, business_hours: false }] },
        "Priority must be one of low, normal, high, urgent",
      ],
    ];
    for (const [payload, message] of bad) {
      const res = await call(org.token, "PUT", "/api/automation/sla", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
    // Agents see the targets read-only (the /automation screen); changing them is for admins.
    expect((await call(agent.token, "GET", "/api/automation/sla")).json().targets[3]).toMatchObject({
      first_response_hours: 1,
    });
    expect((await call(agent.token, "PUT", "/api/automation/sla", { targets: [] })).statusCode).toBe(403);
    const other = await registerOrg(t.app);
    const theirs = (await call(other.token, "GET", "/api/automation/sla")).json().targets as SlaTarget[];
    expect(theirs[3]?.first_response_hours).toBeNull();
  });

  it("give a ticket due times that go close, breached and met as time passes and the team answers", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 1, resolution_hours: 4, business_hours: false }],
    });
    const ticket = await createTicket(org.token);
    const created = new Date(ticket.created_at).getTime();
    const fresh = await slaOf(agent.token, ticket.id);
    expect(fresh.first_response).toEqual({
      due_at: new Date(created + HOUR).toISOString(),
      state: "on_track",
      done_at: null,
    });
    expect(fresh.resolution?.due_at).toBe(new Date(created + 4 * HOUR).toISOString());

    at(55 * 60_000);
    expect((await slaOf(agent.token, ticket.id)).first_response?.state).toBe("close");
    at(2 * HOUR);
    expect(await slaOf(agent.token, ticket.id)).toMatchObject({
      first_response: { state: "breached" },
      resolution: { state: "on_track" },
    });
    // An internal note is not a response; a public reply by the team is.
    await call(agent.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Checking", is_public: false });
    expect((await slaOf(agent.token, ticket.id)).first_response?.state).toBe("breached");
    await call(agent.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "On it", is_public: true });
    await call(agent.token, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" });
    // Both happened a moment after creation (the database's time), within their targets.
    expect(await slaOf(agent.token, ticket.id)).toMatchObject({
      first_response: { state: "met", done_at: expect.any(String) },
      resolution: { state: "met", done_at: expect.any(String) },
    });

    const normal = await createTicket(org.token, "normal");
    expect(await slaOf(agent.token, normal.id)).toEqual({ first_response: null, resolution: null });
    const other = await registerOrg(t.app);
    expect((await call(other.token, "GET", `/api/tickets/${ticket.id}/sla`)).statusCode).toBe(404);
  });

  it("count business hours Monday to Friday 09:00-17:00 in the organization's time zone", () => {
    // Friday 27 November 2026, 16:00 UTC: one hour left that day, then Monday from 09:00.
    expect(addHours(new Date("2026-11-27T16:00:00Z"), 2, DEFAULT_WINDOW, "UTC").toISOString()).toBe(
      "2026-11-30T10:00:00.000Z",
    );
    expect(addHours(new Date("2026-11-28T12:00:00Z"), 1, DEFAULT_WINDOW, "UTC").toISOString()).toBe(
      "2026-11-30T10:00:00.000Z",
    );
    expect(addHours(new Date("2026-11-30T07:30:00Z"), 8, DEFAULT_WINDOW, "UTC").toISOString()).toBe(
      "2026-11-30T17:00:00.000Z",
    );
    // 16:00 in New York (21:00 UTC) on that Friday: Monday 10:00 there, 15:00 UTC.
    expect(addHours(new Date("2026-11-27T21:00:00Z"), 2, DEFAULT_WINDOW, "America/New_York").toISOString()).toBe(
      "2026-11-30T15:00:00.000Z",
    );
    expect(addHours(new Date("2026-11-27T16:00:00Z"), 2, false, "UTC").toISOString()).toBe("2026-11-27T18:00:00.000Z");
  });

  it("skip the hour the clocks go forward inside a night's opening hours", () => {
    // Open every night 22:00-06:00 in Berlin; the clocks go from 02:00 to 03:00 on Sunday 29 March 2026, so
    // Saturday's night (21:00-04:00 UTC) has 7 hours. The 8th is the first of Sunday's night: 22:00-23:00 there.
    const nights = { days: [0, 1, 2, 3, 4, 5, 6], opens: 22 * 60, closes: 6 * 60 };
    const saturday = new Date("2026-03-28T21:00:00Z");
    expect(addHours(saturday, 7, nights, "Europe/Berlin").toISOString()).toBe("2026-03-29T04:00:00.000Z");
    expect(addHours(saturday, 8, nights, "Europe/Berlin").toISOString()).toBe("2026-03-29T21:00:00.000Z");
  });
  it("count the hour the clocks go back once, as it passes, for hours spanning it (the report of a double count)", () => {
    const every = [0, 1, 2, 3, 4, 5, 6];
    const nights = { days: every, opens: 22 * 60, closes: 6 * 60 };
    const days = { days: every, opens: 0, closes: 23 * 60 + 59 };
    const minutes = (w: typeof nights, tz: string, a: string, b: string) =>
      businessMinutesCounter(
        w,
        tz,
        new Date("2026-10-20T00:00:00Z"),
        new Date("2026-11-10T00:00:00Z"),
      )(new Date(a), new Date(b));
    // Berlin goes from 03:00 CEST back to 02:00 CET on Sunday 25 October 2026 (01:00 UTC). Saturday's night runs from
    // 22:00 CEST (20:00 UTC) to 06:00 CET (05:00 UTC): 9 hours, the repeated hour once each time it passes.
    const saturday = new Date("2026-10-24T20:00:00Z");
    expect(addHours(saturday, 9, nights, "Europe/Berlin").toISOString()).toBe("2026-10-25T05:00:00.000Z");
    // The 10th is the first of Sunday's night: 22:00-23:00 CET, 21:00-22:00 UTC.
    expect(addHours(saturday, 10, nights, "Europe/Berlin").toISOString()).toBe("2026-10-25T22:00:00.000Z");
    expect(minutes(nights, "Europe/Berlin", "2026-10-24T20:00:00Z", "2026-10-25T05:00:00Z")).toBe(540);
    // Open all day (00:00-23:59): Sunday runs from 00:00 CEST (22:00 UTC Saturday) to 23:59 CET (22:59 UTC): 24 h 59.
    expect(minutes(days, "Europe/Berlin", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z")).toBe(24 * 60 + 59);
    expect(addHours(new Date("2026-10-24T22:00:00Z"), 25, days, "Europe/Berlin").toISOString()).toBe(
      "2026-10-25T23:01:00.000Z", // 24 h 59 on Sunday, then Monday's first minute (00:00 CET is 23:00 UTC).
    );
    // New York goes from 02:00 EDT back to 01:00 EST on Sunday 1 November 2026 (06:00 UTC). Saturday's night runs from
    // 22:00 EDT (02:00 UTC) to 06:00 EST (11:00 UTC): 9 hours.
    const nySaturday = new Date("2026-11-01T02:00:00Z");
    expect(addHours(nySaturday, 9, nights, "America/New_York").toISOString()).toBe("2026-11-01T11:00:00.000Z");
    expect(addHours(nySaturday, 4, nights, "America/New_York").toISOString()).toBe("2026-11-01T06:00:00.000Z");
    expect(addHours(nySaturday, 5, nights, "America/New_York").toISOString()).toBe("2026-11-01T07:00:00.000Z");
    expect(minutes(nights, "America/New_York", "2026-11-01T02:00:00Z", "2026-11-01T11:00:00Z")).toBe(540);
  });

  it("open and close hours that start or end near the repeated hour as PostgreSQL reads them, in both counts", () => {
    const every = [0, 1, 2, 3, 4, 5, 6];
    const count = (w: { days: number[]; opens: number; closes: number }, tz: string, a: string, b: string) =>
      businessMinutesCounter(
        w,
        tz,
        new Date("2026-10-20T00:00:00Z"),
        new Date("2026-11-10T00:00:00Z"),
      )(new Date(a), new Date(b));
    // 01:00-05:00 in Berlin: 01:00 on Sunday 25 October is CEST (23:00 UTC Saturday), 05:00 is CET (04:00 UTC): 5 h.
    const early = { days: every, opens: 60, closes: 5 * 60 };
    expect(count(early, "Europe/Berlin", "2026-10-24T12:00:00Z", "2026-10-25T12:00:00Z")).toBe(300);
    expect(addHours(new Date("2026-10-24T12:00:00Z"), 5, early, "Europe/Berlin").toISOString()).toBe(
      "2026-10-25T04:00:00.000Z",
    );
    // 02:30-03:00 in Berlin: a time the clocks show twice is the later one (standard time, as PostgreSQL reads it), so
    // Sunday's window is 02:30-03:00 CET (01:30-02:00 UTC), 30 minutes; then Monday's, 01:30-02:00 UTC.
    const inside = { days: every, opens: 150, closes: 180 };
    expect(count(inside, "Europe/Berlin", "2026-10-24T12:00:00Z", "2026-10-25T12:00:00Z")).toBe(30);
    const from = new Date("2026-10-24T12:00:00Z");
    expect(addHours(from, 0.5, inside, "Europe/Berlin").toISOString()).toBe("2026-10-25T02:00:00.000Z");
    expect(addHours(from, 1, inside, "Europe/Berlin").toISOString()).toBe("2026-10-26T02:00:00.000Z");
    // 01:30-05:00 in New York: 01:30 on Sunday 1 November is shown twice; the later is EST (06:30 UTC); 05:00 EST is
    // 10:00 UTC: 3 h 30.
    const ny = { days: every, opens: 90, closes: 5 * 60 };
    expect(count(ny, "America/New_York", "2026-10-31T12:00:00Z", "2026-11-01T12:00:00Z")).toBe(210);
    expect(addHours(new Date("2026-10-31T12:00:00Z"), 3.5, ny, "America/New_York").toISOString()).toBe(
      "2026-11-01T10:00:00.000Z",
    );
  });
});
