import type { CreateRuleBody, Rule, RuleRun } from "@cove/contract/automation.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { afterEach, describe, expect, it } from "vitest";
import { runTimeRules } from "../../src/modules/automation/automation.timers.ts";
import { setClock } from "../../src/platform/clock.ts";
import { addMember, client, createTicket as newTicket, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();
afterEach(() => setClock(null));

const HOUR = 3_600_000;
/** Moves the clock the time rules read to this long from now. */
const later = (ms: number) => {
  const at = Date.now() + ms;
  setClock(() => new Date(at));
};

const call = client(() => t.app);

async function createRule(token: string, body: Partial<CreateRuleBody> & Pick<CreateRuleBody, "actions">) {
  const res = await call(token, "POST", "/api/automation/rules", { name: "Timer", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().rule as Rule;
}

const createTicket = (token: string, fields: Record<string, unknown> = {}) =>
  newTicket(t.app, token, { subject: "Where is my parcel?", description: "It has been a while.", ...fields });

const readTicket = async (token: string, id: string) =>
  (await call(token, "GET", `/api/tickets/${id}`)).json().ticket as Ticket;
const runsOf = async (token: string, id: string) =>
  (await call(token, "GET", `/api/automation/rules/${id}/runs`)).json().runs as RuleRun[];

describe("time-based rules", () => {
  it("close a ticket pending for 3 days, once, as the rule, and leave the others", async () => {
    const org = await registerOrg(t.app);
    const rule = await createRule(org.token, {
      name: "Close quiet tickets",
      triggerConditions: { event: "ticket_pending_for", after: { amount: 3, unit: "days" }, conditions: [] },
      actions: [
        { type: "change_status", status: "closed" },
        { type: "add_comment", comment: "Closed: no answer from {{ticket.requester_name}} in 3 days." },
      ],
    });
    expect(rule.trigger_conditions).toMatchObject({ event: "ticket_pending_for", after: { amount: 3, unit: "days" } });
    const pending = await createTicket(org.token);
    await call(org.token, "PUT", `/api/tickets/${pending.id}`, { status: "pending" });
    const open = await createTicket(org.token);

    later(2 * 24 * HOUR);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, pending.id)).status).toBe("pending");

    later(3 * 24 * HOUR + 60_000);
    await runTimeRules(t.database.db);
    const closed = await readTicket(org.token, pending.id);
    expect(closed.status).toBe("closed");
    expect(closed.activity.at(-1)).toMatchObject({
      type: "status",
      actor_name: "Close quiet tickets",
      to_value: "closed",
    });
    expect(closed.comments.map((c) => [c.author_name, c.is_public, c.body])).toEqual([
      ["Close quiet tickets", false, "Closed: no answer from Ana Ruiz in 3 days."],
    ]);
    expect((await readTicket(org.token, open.id)).status).toBe("open");

    // Acted on once: another pass, later still, does nothing more.
    later(5 * 24 * HOUR);
    await runTimeRules(t.database.db);
    const runs = await runsOf(org.token, rule.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      event: "ticket_pending_for",
      matched: true,
      actions_done: ["change_status: closed", "add_comment: internal note"],
    });
  });

  it("act again when the ticket enters the state again", async () => {
    const org = await registerOrg(t.app);
    const rule = await createRule(org.token, {
      triggerConditions: { event: "ticket_open_for", after: { amount: 1, unit: "hours" }, conditions: [] },
      actions: [{ type: "change_priority", priority: "high" }],
    });
    const ticket = await createTicket(org.token);
    later(2 * HOUR);
    await runTimeRules(t.database.db);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, ticket.id)).priority).toBe("high");
    expect(await runsOf(org.token, rule.id)).toHaveLength(1);

    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "pending", priority: "low" });
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "open" });
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, ticket.id)).priority).toBe("high");
    expect(await runsOf(org.token, rule.id)).toHaveLength(2);
  });

  it("unassigned for N hours, with conditions, never across organizations", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const other = await registerOrg(t.app);
    const rule = await createRule(org.token, {
      triggerConditions: {
        event: "ticket_unassigned_for",
        after: { amount: 4, unit: "hours" },
        conditions: [{ field: "ticket.priority", operator: "equals", value: "urgent" }],
      },
      actions: [{ type: "assign_ticket", assignee_id: "round_robin" }],
    });
    const urgent = await createTicket(org.token, { priority: "urgent" });
    const normal = await createTicket(org.token);
    const assigned = await createTicket(org.token, { priority: "urgent" });
    await call(org.token, "PUT", `/api/tickets/${assigned.id}`, { assignee_id: org.user.id });
    const solved = await createTicket(org.token, { priority: "urgent" });
    await call(org.token, "PUT", `/api/tickets/${solved.id}`, { status: "solved" });
    const elsewhere = await createTicket(other.token, { priority: "urgent" });

    later(3 * HOUR);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, urgent.id)).assignee_id).toBeNull();

    later(5 * HOUR);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, urgent.id)).assignee_id).toBe(agent.id);
    expect((await readTicket(org.token, normal.id)).assignee_id).toBeNull();
    expect((await readTicket(org.token, assigned.id)).assignee_id).toBe(org.user.id);
    expect((await readTicket(org.token, solved.id)).assignee_id).toBeNull();
    expect((await readTicket(other.token, elsewhere.id)).assignee_id).toBeNull();
    const runs = await runsOf(org.token, rule.id);
    expect(runs.filter((r) => r.matched).map((r) => r.ticket_id)).toEqual([urgent.id]);
    expect(runs.every((r) => [urgent.id, normal.id].includes(r.ticket_id ?? ""))).toBe(true);
  });

  it("SLA breaches set off rules, once per ticket", async () => {
    const org = await registerOrg(t.app);
    await call(org.token, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 1, resolution_hours: 4, business_hours: false }],
    });
    const firstResponse = await createRule(org.token, {
      triggerConditions: { event: "ticket_first_response_breached", conditions: [] },
      actions: [{ type: "add_tags", tags: ["late-reply"] }],
    });
    await createRule(org.token, {
      triggerConditions: { event: "ticket_resolution_breached", conditions: [] },
      actions: [{ type: "add_tags", tags: ["late-fix"] }],
    });
    const unanswered = await createTicket(org.token, { priority: "urgent" });
    const answered = await createTicket(org.token, { priority: "urgent" });
    await call(org.token, "POST", `/api/tickets/${answered.id}/comments`, { body: "On it", is_public: true });
    const solved = await createTicket(org.token, { priority: "urgent" });
    await call(org.token, "PUT", `/api/tickets/${solved.id}`, { status: "solved" });
    const normal = await createTicket(org.token);

    later(30 * 60_000);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, unanswered.id)).tags).toEqual([]);

    later(2 * HOUR);
    await runTimeRules(t.database.db);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, unanswered.id)).tags).toEqual(["late-reply"]);
    expect((await readTicket(org.token, answered.id)).tags).toEqual([]);
    expect((await readTicket(org.token, solved.id)).tags).toEqual([]);
    expect((await readTicket(org.token, normal.id)).tags).toEqual([]);
    expect(await runsOf(org.token, firstResponse.id)).toHaveLength(1);

    later(5 * HOUR);
    await runTimeRules(t.database.db);
    expect((await readTicket(org.token, unanswered.id)).tags).toEqual(["late-reply", "late-fix"]);
    expect((await readTicket(org.token, answered.id)).tags).toEqual(["late-fix"]);
    expect((await readTicket(org.token, solved.id)).tags).toEqual([]);
  });

  it("need a time, and only they take one", async () => {
    const org = await registerOrg(t.app);
    const cases: [object, string][] = [
      [{ event: "ticket_pending_for", conditions: [] }, "ticket_pending_for needs a time: after {amount, unit}"],
      [
        { event: "ticket_created", after: { amount: 2, unit: "days" }, conditions: [] },
        "Only a time-based trigger takes a time",
      ],
      [{ event: "ticket_open_for", after: { amount: 0, unit: "days" } }, "The time must be at least 1"],
      [{ event: "ticket_open_for", after: { amount: 2, unit: "weeks" } }, "The time's unit must be hours or days"],
    ];
    for (const [triggerConditions, message] of cases) {
      const res = await call(org.token, "POST", "/api/automation/rules", {
        name: "Timer",
        triggerConditions,
        actions: [{ type: "escalate" }],
      });
      expect(res.statusCode, JSON.stringify(triggerConditions)).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });
});
