import type { SlaTarget, TicketSlaAnswer } from "@cove/contract/sla.ts";
import { afterEach, describe, expect, it } from "vitest";
import { addHours, DEFAULT_WINDOW } from "../../src/modules/automation/sla.ts";
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
});
