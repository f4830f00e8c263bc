import type { CreateRuleBody, Rule, RuleRun } from "@cove/contract/automation.ts";
import type { NotificationListAnswer } from "@cove/contract/notifications.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { addMember, client, createTicket, type Method, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const call = client(() => t.app);

/** A rule's trigger: a ticket's status changing to `status`. */
const statusBecomes = (status: string): CreateRuleBody["triggerConditions"] => ({
  event: "ticket_status_changed",
  conditions: [{ field: "ticket.status", operator: "equals", value: status }],
});

async function createRule(token: string, body: Partial<CreateRuleBody> & Pick<CreateRuleBody, "actions">) {
  const res = await call(token, "POST", "/api/automation/rules", {
    name: "A rule",
    triggerConditions: { event: "ticket_created", conditions: [] },
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().rule as Rule;
}

const readTicket = async (token: string, id: string) =>
  (await call(token, "GET", `/api/tickets/${id}`)).json().ticket as Ticket;

const runsOf = async (token: string, ruleId: string) => {
  const res = await call(token, "GET", `/api/automation/rules/${ruleId}/runs`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().runs as RuleRun[];
};

const stats = async (token: string) => (await call(token, "GET", "/api/automation/stats")).json();

describe("the rules API (docs/product.md, API calls)", () => {
  it("creates, lists, edits, pauses with only isActive and deletes, in the spec's shape", async () => {
    const org = await registerOrg(t.app);
    const res = await call(org.token, "POST", "/api/automation/rules", {
      name: "  Refunds to billing  ",
      description: "Tag refund requests",
      triggerConditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
      },
      actions: [{ type: "add_tags", tags: ["Billing"] }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json().rule as Rule;
    expect(rule).toMatchObject({
      name: "Refunds to billing",
      description: "Tag refund requests",
      is_active: true,
      trigger_conditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
        match: "all",
      },
      actions: [{ type: "add_tags", tags: ["billing"] }],
    });
    const list = await call(org.token, "GET", "/api/automation/rules");
    expect(list.json().rules.map((r: Rule) => r.id)).toEqual([rule.id]);

    const paused = await call(org.token, "PUT", `/api/automation/rules/${rule.id}`, { isActive: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().rule).toMatchObject({ is_active: false, name: "Refunds to billing" });
    expect(paused.json().rule.trigger_conditions).toEqual(rule.trigger_conditions);

    const edited = await call(org.token, "PUT", `/api/automation/rules/${rule.id}`, {
      name: "Refunds",
      description: "",
      triggerConditions: { event: "comment_added", conditions: [] },
      actions: [{ type: "change_priority", priority: "high" }],
      isActive: true,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().rule).toMatchObject({
      name: "Refunds",
      description: "",
      is_active: true,
      trigger_conditions: { event: "comment_added", conditions: [] },
      actions: [{ type: "change_priority", priority: "high" }],
    });

    expect((await stats(org.token)).total_rules).toBe(1);
    const del = await call(org.token, "DELETE", `/api/automation/rules/${rule.id}`);
    expect(del.statusCode).toBe(200);
    expect((await call(org.token, "GET", "/api/automation/rules")).json().rules).toEqual([]);
    expect((await call(org.token, "DELETE", `/api/automation/rules/${rule.id}`)).statusCode).toBe(404);
  });

  it("validates field by field with clear messages", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const inactive = await addMember(t.database, org.user.organizationId);
    await call(org.token, "PUT", `/api/users/${inactive.id}`, { status: "inactive" });
    const base = {
      name: "Rule",
      triggerConditions: { event: "ticket_created", conditions: [] },
      actions: [{ type: "escalate" }],
    };
    const cases: [object, string][] = [
      [{ ...base, name: "   " }, "Rule name is required"],
      [{ ...base, name: undefined }, "Rule name is required"],
      [
        {
          ...base,
          triggerConditions: { event: "ticket_created", conditions: [{ field: "ticket.status", operator: "equals" }] },
        },
        "The operator equals needs a value",
      ],
      [
        {
          ...base,
          triggerConditions: {
            event: "ticket_created",
            conditions: [{ field: "ticket.subject", operator: "contains", value: "  " }],
          },
        },
        "The operator contains needs a value",
      ],
      [
        {
          ...base,
          triggerConditions: {
            event: "ticket_created",
            conditions: [{ field: "ticket.colour", operator: "equals", value: "red" }],
          },
        },
        "Unknown condition field: use one of ticket.status, ticket.priority, ticket.subject, ticket.requester_email, ticket.assignee_id",
      ],
      [
        {
          ...base,
          triggerConditions: {
            event: "ticket_created",
            conditions: [{ field: "ticket.status", operator: "equals", value: "done" }],
          },
        },
        "The value of ticket.status must be one of open, pending, solved, closed",
      ],
      [
        {
          ...base,
          triggerConditions: { event: "ticket_deleted", conditions: [] },
        },
        "Unknown trigger event: use one of ticket_created, ticket_updated, ticket_status_changed, ticket_assigned, comment_added, ticket_pending_for, ticket_open_for, ticket_unassigned_for, ticket_first_response_breached, ticket_resolution_breached",
      ],
      [
        { ...base, actions: [{ type: "delete_ticket" }] },
        "Unknown action type: use one of assign_ticket, change_status, change_priority, add_tags, add_comment, escalate",
      ],
      [{ ...base, actions: [] }, "Add at least one action"],
      [
        { ...base, actions: [{ type: "change_status", status: "done" }] },
        "change_status's status must be one of open, pending, solved, closed",
      ],
      [{ ...base, actions: [{ type: "add_comment", comment: " " }] }, "add_comment needs a comment"],
      // The form's "Choose a member…" sends an empty id.
      [
        { ...base, actions: [{ type: "assign_ticket", assignee_id: "" }] },
        "assign_ticket needs an assignee_id: a member's id or round_robin",
      ],
      [
        { ...base, actions: [{ type: "assign_ticket" }] },
        "assign_ticket needs an assignee_id: a member's id or round_robin",
      ],
      [
        { ...base, actions: [{ type: "escalate" }, { type: "assign_ticket", assignee_id: inactive.id }] },
        "Action 2: the assignee must be an active member of your team",
      ],
      [
        { ...base, actions: [{ type: "assign_ticket", assignee_id: other.user.id }] },
        "Action 1: the assignee must be an active member of your team",
      ],
      [{ ...base, isActive: "yes" }, "isActive must be true or false"],
    ];
    for (const [payload, message] of cases) {
      const res = await call(org.token, "POST", "/api/automation/rules", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toBe(message);
    }
    const rule = await createRule(org.token, { actions: [{ type: "escalate" }] });
    const empty = await call(org.token, "PUT", `/api/automation/rules/${rule.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("Send at least one field to change");
    const bad = await call(org.token, "PUT", `/api/automation/rules/${rule.id}`, {
      actions: [{ type: "assign_ticket", assignee_id: other.user.id }],
    });
    expect(bad.json().error).toBe("Action 1: the assignee must be an active member of your team");
    expect((await call(org.token, "GET", "/api/automation/rules")).json().rules).toHaveLength(1);
  });

  it("is changed by admins only: an agent reads the rules, logs and figures, and gets 403 on every change", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const rule = await createRule(org.token, { actions: [{ type: "escalate" }] });
    const writes: [Method, string][] = [
      ["POST", "/api/automation/rules"],
      ["PUT", `/api/automation/rules/${rule.id}`],
      ["DELETE", `/api/automation/rules/${rule.id}`],
      ["PUT", "/api/automation/sla"],
    ];
    for (const [method, url] of writes) {
      const res = await call(agent.token, method, url, method === "DELETE" ? undefined : { isActive: false });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("Only an administrator can do this.");
    }
    // docs/product.md, "Roles": agents cannot manage automation, and see it read-only.
    const rules = await call(agent.token, "GET", "/api/automation/rules");
    expect(rules.statusCode).toBe(200);
    expect(rules.json().rules).toMatchObject([{ id: rule.id, is_active: true }]);
    expect((await call(agent.token, "GET", `/api/automation/rules/${rule.id}/runs`)).statusCode).toBe(200);
    expect((await call(agent.token, "GET", "/api/automation/stats")).json()).toMatchObject({ total_rules: 1 });
    // Another organization's agent sees none of it.
    const other = await registerOrg(t.app);
    const stranger = await addMember(t.database, other.user.organizationId);
    expect((await call(stranger.token, "GET", "/api/automation/rules")).json().rules).toEqual([]);
    expect((await call(stranger.token, "GET", `/api/automation/rules/${rule.id}/runs`)).statusCode).toBe(404);
  });
});

describe("conditions: every operator on every field", () => {
  it("matches exactly the conditions that hold, without regard to case, and logs each run", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    // The ticket: status open, priority high, subject "Refund for a broken lamp", requester ana@example.com, no assignee.
    const matrix: [string, string, string, boolean][] = [
      ["ticket.status", "equals", "OPEN", true],
      ["ticket.status", "not_equals", "open", false],
      ["ticket.status", "contains", "pe", true],
      ["ticket.status", "not_contains", "pe", false],
      ["ticket.status", "is_empty", "", false],
      ["ticket.status", "is_not_empty", "", true],
      ["ticket.priority", "equals", "high", true],
      ["ticket.priority", "not_equals", "high", false],
      ["ticket.priority", "contains", "ig", true],
      ["ticket.priority", "not_contains", "ig", false],
      ["ticket.priority", "is_empty", "", false],
      ["ticket.priority", "is_not_empty", "", true],
      ["ticket.subject", "equals", "refund for a broken lamp", true],
      ["ticket.subject", "not_equals", "refund", true],
      ["ticket.subject", "contains", "REFUND", true],
      ["ticket.subject", "not_contains", "refund", false],
      ["ticket.subject", "is_empty", "", false],
      ["ticket.subject", "is_not_empty", "", true],
      ["ticket.requester_email", "equals", "ana@example.com", true],
      ["ticket.requester_email", "not_equals", "ana@example.com", false],
      ["ticket.requester_email", "contains", "@example", true],
      ["ticket.requester_email", "not_contains", "@example", false],
      ["ticket.requester_email", "is_empty", "", false],
      ["ticket.requester_email", "is_not_empty", "", true],
      ["ticket.assignee_id", "equals", agent.id, false],
      ["ticket.assignee_id", "not_equals", agent.id, true],
      ["ticket.assignee_id", "contains", "a", false],
      ["ticket.assignee_id", "not_contains", "a", true],
      ["ticket.assignee_id", "is_empty", "", true],
      ["ticket.assignee_id", "is_not_empty", "", false],
    ];
    const rules: Rule[] = [];
    for (const [i, [field, operator, value]] of matrix.entries()) {
      rules.push(
        await createRule(org.token, {
          name: `${field} ${operator}`,
          triggerConditions: { event: "ticket_created", conditions: [{ field, operator, value }] } as never,
          actions: [{ type: "add_tags", tags: [`c${i}`] }],
        }),
      );
    }
    const ticket = await createTicket(t.app, org.token, { priority: "high" });
    const expected = matrix.flatMap(([, , , holds], i) => (holds ? [`c${i}`] : []));
    expect([...ticket.tags].sort()).toEqual([...expected].sort());
    for (const [i, rule] of rules.entries()) {
      const runs = await runsOf(org.token, rule.id);
      expect(runs, rule.name).toHaveLength(1);
      expect(runs[0], rule.name).toMatchObject({
        ticket_id: ticket.id,
        ticket_number: ticket.ticket_number,
        event: "ticket_created",
        matched: matrix[i]?.[3],
        actions_done: matrix[i]?.[3] ? [`add_tags: c${i}`] : [],
        error: null,
        stopped: false,
      });
    }

    // The assignee, once there is one: a rule on ticket_assigned sees it.
    const assigned = await createRule(org.token, {
      triggerConditions: {
        event: "ticket_assigned",
        conditions: [{ field: "ticket.assignee_id", operator: "equals", value: agent.id }],
      },
      actions: [{ type: "add_tags", tags: ["priya"] }],
    });
    await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { assignee_id: agent.id });
    expect((await readTicket(org.token, ticket.id)).tags).toContain("priya");
    expect((await runsOf(org.token, assigned.id))[0]).toMatchObject({ matched: true, event: "ticket_assigned" });
  });

  it("needs all conditions by default, one with match any; a rule without conditions always runs", async () => {
    const org = await registerOrg(t.app);
    const conditions = [
      { field: "ticket.subject", operator: "contains", value: "refund" },
      { field: "ticket.priority", operator: "equals", value: "urgent" },
    ];
    await createRule(org.token, {
      triggerConditions: { event: "ticket_created", conditions } as never,
      actions: [{ type: "add_tags", tags: ["all"] }],
    });
    await createRule(org.token, {
      triggerConditions: { event: "ticket_created", conditions, match: "any" } as never,
      actions: [{ type: "add_tags", tags: ["any"] }],
    });
    await createRule(org.token, { actions: [{ type: "add_tags", tags: ["always"] }] });
    expect((await createTicket(t.app, org.token)).tags.sort()).toEqual(["always", "any"]);
    expect((await createTicket(t.app, org.token, { priority: "urgent" })).tags.sort()).toEqual([
      "all",
      "always",
      "any",
    ]);
    expect((await createTicket(t.app, org.token, { subject: "Hello" })).tags).toEqual(["always"]);
  });
});

describe("actions", () => {
  it("assign, change status and priority, add tags: done by the rule, shown in the activity under its name", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    const rule = await createRule(org.token, {
      name: "Refund triage",
      triggerConditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
      },
      actions: [
        { type: "assign_ticket", assignee_id: agent.id },
        { type: "change_status", status: "pending" },
        { type: "change_priority", priority: "high" },
        { type: "add_tags", tags: ["billing", "refund"] },
      ],
    });
    const created = await createTicket(t.app, org.token, { tags: ["lamp"] });
    // The answer to the creation already shows what the rule did: it ran in the same transaction.
    expect(created).toMatchObject({
      status: "pending",
      priority: "high",
      assignee_id: agent.id,
      tags: ["lamp", "billing", "refund"],
    });
    const ticket = await readTicket(org.token, created.id);
    const byRule = ticket.activity.filter((a) => a.actor_name === "Refund triage").map((a) => [a.type, a.to_value]);
    expect(byRule).toEqual([
      ["assignee", "Priya Shah"],
      ["status", "pending"],
      ["priority", "high"],
      ["tags", "lamp, billing, refund"],
    ]);
    expect((await runsOf(org.token, rule.id))[0]?.actions_done).toEqual([
      "assign_ticket: Priya Shah",
      "change_status: pending",
      "change_priority: high",
      "add_tags: billing, refund",
    ]);
    // The assignee is told, by the rule's name.
    const bell = (await call(agent.token, "GET", "/api/notifications")).json() as NotificationListAnswer;
    expect(bell.notifications[0]).toMatchObject({ type: "assigned", actor_name: "Refund triage" });
    // Another ticket that does not match is left alone.
    expect(await createTicket(t.app, org.token, { subject: "Hello" })).toMatchObject({
      status: "open",
      assignee_id: null,
    });
  });

  it("round-robin assigns active agents in turn and skips inactive ones", async () => {
    const org = await registerOrg(t.app);
    const a = await addMember(t.database, org.user.organizationId, { firstName: "A" });
    const gone = await addMember(t.database, org.user.organizationId, { firstName: "Gone" });
    const b = await addMember(t.database, org.user.organizationId, { firstName: "B" });
    await addMember(t.database, org.user.organizationId, { firstName: "Boss", role: "admin" });
    await call(org.token, "PUT", `/api/users/${gone.id}`, { status: "inactive" });
    await createRule(org.token, { actions: [{ type: "assign_ticket", assignee_id: "round_robin" }] });
    const assignees = [];
    for (let i = 0; i < 4; i++) assignees.push((await createTicket(t.app, org.token)).assignee_id);
    expect(assignees).toEqual([a.id, b.id, a.id, b.id]);
  });

  it("adds an internal note or a public reply as the rule, with placeholders filled", async () => {
    const org = await registerOrg(t.app);
    await createRule(org.token, {
      name: "Acknowledge",
      actions: [
        {
          type: "add_comment",
          comment:
            'Hi {{ticket.requester_name}}, we got "{{ ticket.subject }}" (#{{ticket.ticket_number}}). {{ticket.unknown}}',
          is_public: true,
        },
        { type: "add_comment", comment: "Check the {{ticket.priority}} queue" },
      ],
    });
    const ticket = await createTicket(t.app, org.token);
    // Both are written in the ticket's transaction, at the same time: compare them in a fixed order.
    const comments = ticket.comments.map((c) => [c.author_name, c.is_public, c.body]);
    expect(comments.sort((x, y) => String(x[2]).localeCompare(String(y[2])))).toEqual([
      ["Acknowledge", false, "Check the normal queue"],
      [
        "Acknowledge",
        true,
        `Hi Ana Ruiz, we got "Refund for a broken lamp" (#${ticket.ticket_number}). {{ticket.unknown}}`,
      ],
    ]);
  });

  it("assigns and comments: the assignee is told once, of the assignment (a rule's comment is not a reply)", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId, { firstName: "Priya", lastName: "Shah" });
    await createRule(org.token, {
      name: "Triage",
      actions: [
        { type: "assign_ticket", assignee_id: agent.id },
        { type: "add_comment", comment: "Assigned to the refunds desk" },
        { type: "add_comment", comment: "We got your message", is_public: true },
      ],
    });
    const ticket = await createTicket(t.app, org.token);
    expect(ticket.assignee_id).toBe(agent.id);
    const bell = (await call(agent.token, "GET", "/api/notifications")).json() as NotificationListAnswer;
    expect(bell.notifications.map((n) => [n.type, n.actor_name, n.ticket_id])).toEqual([
      ["assigned", "Triage", ticket.id],
    ]);
    // A person's reply on that ticket is still one.
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Any news?", is_public: false });
    const after = (await call(agent.token, "GET", "/api/notifications")).json() as NotificationListAnswer;
    expect(after.notifications.map((n) => n.type)).toEqual(["reply", "assigned"]);
  });

  it("escalates: priority urgent and every active admin notified", async () => {
    const org = await registerOrg(t.app);
    const admin2 = await addMember(t.database, org.user.organizationId, { role: "admin" });
    const agent = await addMember(t.database, org.user.organizationId);
    await createRule(org.token, {
      name: "VIP escalation",
      triggerConditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.requester_email", operator: "contains", value: "@vip.example" }],
      },
      actions: [{ type: "escalate" }],
    });
    const ticket = await createTicket(t.app, org.token, { requester_email: "boss@vip.example" });
    expect(ticket.priority).toBe("urgent");
    for (const token of [org.token, admin2.token]) {
      const bell = (await call(token, "GET", "/api/notifications")).json() as NotificationListAnswer;
      expect(bell.notifications[0]).toMatchObject({
        type: "escalated",
        actor_name: "VIP escalation",
        title: `#${ticket.ticket_number} Refund for a broken lamp`,
        link: `/tickets/${ticket.id}`,
      });
    }
    expect((await call(agent.token, "GET", "/api/notifications")).json().unread_count).toBe(0);
  });

  it("runs on comments and status changes too, and a paused rule does not run", async () => {
    const org = await registerOrg(t.app);
    const onComment = await createRule(org.token, {
      triggerConditions: { event: "comment_added", conditions: [] },
      actions: [{ type: "change_status", status: "pending" }],
    });
    await createRule(org.token, {
      triggerConditions: statusBecomes("pending"),
      actions: [{ type: "add_tags", tags: ["waiting"] }],
    });
    const ticket = await createTicket(t.app, org.token);
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "We are on it", is_public: true });
    expect(await readTicket(org.token, ticket.id)).toMatchObject({ status: "pending", tags: ["waiting"] });

    await call(org.token, "PUT", `/api/automation/rules/${onComment.id}`, { isActive: false });
    const other = await createTicket(t.app, org.token);
    await call(org.token, "POST", `/api/tickets/${other.id}/comments`, { body: "Again", is_public: true });
    expect((await readTicket(org.token, other.id)).status).toBe("open");
    expect(await runsOf(org.token, onComment.id)).toHaveLength(1);
  });

  it("a failing action rolls its rule back alone and is logged; the ticket is still created", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const failing = await createRule(org.token, {
      actions: [
        { type: "add_tags", tags: ["first"] },
        { type: "assign_ticket", assignee_id: agent.id },
      ],
    });
    await createRule(org.token, { actions: [{ type: "add_tags", tags: ["second"] }] });
    await call(org.token, "PUT", `/api/users/${agent.id}`, { status: "inactive" });
    const ticket = await createTicket(t.app, org.token);
    expect(ticket).toMatchObject({ assignee_id: null, tags: ["second"] });
    expect((await runsOf(org.token, failing.id))[0]).toMatchObject({
      matched: true,
      actions_done: [],
      error: "The assignee must be an active member of your team.",
    });
  });
});

describe("order and the loop guard", () => {
  it("runs rules in the order the admin sets", async () => {
    const org = await registerOrg(t.app);
    const raise = await createRule(org.token, { actions: [{ type: "change_priority", priority: "high" }] });
    const check = await createRule(org.token, {
      triggerConditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.priority", operator: "equals", value: "high" }],
      },
      actions: [{ type: "add_tags", tags: ["saw-high"] }],
    });
    expect([raise.position, check.position]).toEqual([0, 1]);
    expect((await createTicket(t.app, org.token)).tags).toEqual(["saw-high"]);
    await call(org.token, "PUT", `/api/automation/rules/${check.id}`, { position: 0 });
    await call(org.token, "PUT", `/api/automation/rules/${raise.id}`, { position: 1 });
    const listed = (await call(org.token, "GET", "/api/automation/rules")).json().rules as Rule[];
    expect(listed.map((r) => r.id)).toEqual([check.id, raise.id]);
    const second = await createTicket(t.app, org.token);
    expect(second).toMatchObject({ priority: "high", tags: [] });
  });

  it("stops two rules that set each other off, logs the stopped run, and the change still succeeds", async () => {
    const org = await registerOrg(t.app);
    const toPending = await createRule(org.token, {
      name: "Ping",
      triggerConditions: statusBecomes("open"),
      actions: [{ type: "change_status", status: "pending" }],
    });
    const toOpen = await createRule(org.token, {
      name: "Pong",
      triggerConditions: statusBecomes("pending"),
      actions: [{ type: "change_status", status: "open" }],
    });
    const ticket = await createTicket(t.app, org.token);
    const res = await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "pending" });
    expect(res.statusCode, res.body).toBe(200);
    const runs = [...(await runsOf(org.token, toPending.id)), ...(await runsOf(org.token, toOpen.id))];
    const done = runs.filter((r) => r.matched && !r.stopped);
    const stopped = runs.filter((r) => r.stopped);
    // The member's change (depth 0) and then rule changes at depths 1 and 2 run; the run at depth 3 is stopped.
    expect(done).toHaveLength(3);
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({
      matched: true,
      actions_done: [],
      error: "Stopped: rules set each other off more than 3 times in a row",
    });
    const activity = (await readTicket(org.token, ticket.id)).activity.filter((a) => a.type === "status");
    expect(activity.map((a) => a.actor_name)).toEqual([expect.any(String), "Pong", "Ping", "Pong"]);
  });
});

describe("a rule and its own changes", () => {
  it("is not set off by its own change: a note on comment_added is added once", async () => {
    const org = await registerOrg(t.app);
    const rule = await createRule(org.token, {
      name: "Note every comment",
      triggerConditions: { event: "comment_added", conditions: [] },
      actions: [{ type: "add_comment", comment: "Seen." }],
    });
    const ticket = await createTicket(t.app, org.token);
    await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, { body: "Hello", is_public: true });
    const comments = (await readTicket(org.token, ticket.id)).comments.map((c) => c.body);
    expect(comments.sort()).toEqual(["Hello", "Seen."]);
    expect(await runsOf(org.token, rule.id)).toHaveLength(1);
  });
});

describe("the cards", () => {
  it("counts total and active rules and today's executions from the run log", async () => {
    const org = await registerOrg(t.app);
    expect(await stats(org.token)).toEqual({ total_rules: 0, active_rules: 0, executions_today: 0 });
    await createRule(org.token, {
      triggerConditions: {
        event: "ticket_created",
        conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
      },
      actions: [{ type: "add_tags", tags: ["x"] }],
    });
    const paused = await createRule(org.token, { actions: [{ type: "escalate" }] });
    await call(org.token, "PUT", `/api/automation/rules/${paused.id}`, { isActive: false });
    await createTicket(t.app, org.token);
    await createTicket(t.app, org.token);
    await createTicket(t.app, org.token, { subject: "Hello" }); // not matched: not an execution
    expect(await stats(org.token)).toEqual({ total_rules: 2, active_rules: 1, executions_today: 2 });
  });

  it("counts today in the organization's time zone", async () => {
    const org = await registerOrg(t.app);
    await createRule(org.token, { actions: [{ type: "add_tags", tags: ["x"] }] });
    await createTicket(t.app, org.token);
    // Far east of UTC or far west, a run made a moment ago is today there as well; one made 30 hours ago is not.
    for (const timezone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const res = await call(org.token, "PUT", "/api/settings/general", { timezone });
      expect(res.statusCode, res.body).toBe(200);
      expect((await stats(org.token)).executions_today).toBe(1);
    }
    await t.database.executeSql(
      "UPDATE automation_runs SET created_at = now() - interval '30 hours' WHERE organization_id = $1",
      [org.user.organizationId],
    );
    expect((await stats(org.token)).executions_today).toBe(0);
  });
});

describe("tenancy", () => {
  it("another organization's admin gets 404 on every rule route and sees nothing", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const rule = await createRule(a.token, { actions: [{ type: "add_tags", tags: ["a"] }] });
    await createTicket(t.app, a.token);
    expect((await call(b.token, "GET", "/api/automation/rules")).json().rules).toEqual([]);
    expect(await stats(b.token)).toEqual({ total_rules: 0, active_rules: 0, executions_today: 0 });
    const routes: [Method, string, object?][] = [
      ["PUT", `/api/automation/rules/${rule.id}`, { isActive: false }],
      ["GET", `/api/automation/rules/${rule.id}/runs`],
      ["DELETE", `/api/automation/rules/${rule.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(b.token, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe("Rule not found");
    }
    expect((await call(a.token, "GET", "/api/automation/rules")).json().rules[0]).toMatchObject({ is_active: true });
  });

  it("a rule never touches another organization's tickets, and never assigns to another organization's user", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const aRule = await createRule(a.token, {
      actions: [
        { type: "add_tags", tags: ["from-a"] },
        { type: "assign_ticket", assignee_id: "round_robin" },
      ],
    });
    const bTicket = await createTicket(t.app, b.token);
    expect(bTicket).toMatchObject({ tags: [], assignee_id: null });
    expect(await runsOf(a.token, aRule.id)).toEqual([]);
    const aTicket = await createTicket(t.app, a.token);
    expect(aTicket).toMatchObject({ tags: ["from-a"], assignee_id: a.user.id });

    // A rule stored with another organization's member (written past the API, which refuses it) cannot assign them.
    await t.database.executeSql(`UPDATE automation_rules SET actions = $1::jsonb WHERE id = $2`, [
      JSON.stringify([{ type: "assign_ticket", assignee_id: b.user.id }]),
      aRule.id,
    ]);
    const third = await createTicket(t.app, a.token);
    expect(third.assignee_id).toBeNull();
    expect((await runsOf(a.token, aRule.id))[0]?.error).toBe("The assignee must be an active member of your team.");
  });
});
