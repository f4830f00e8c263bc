import type { Rule, RuleRun } from "@cove/contract/automation.ts";
import { emptyTargets } from "@cove/contract/sla.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, findOpenDialog, json, type mockApi, renderApp, signedIn, testUser } from "../../../test/render-app.tsx";

const priya: UserListItem = {
  id: "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  first_name: "Priya",
  last_name: "Shah",
  email: "priya@example.com",
  role: "agent",
  status: "active",
  last_login_at: null,
  avatar_url: null,
};

const refunds: Rule = {
  id: "0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b",
  name: "Refunds to billing",
  description: "Tag refund requests",
  is_active: true,
  position: 0,
  trigger_conditions: {
    event: "ticket_created",
    after: null,
    conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
    match: "all",
  },
  actions: [
    { type: "change_priority", priority: "high" },
    { type: "assign_ticket", assignee_id: priya.id },
  ],
  created_at: "2030-01-10T09:30:00.000Z",
  updated_at: "2030-01-10T09:30:00.000Z",
};

const run: RuleRun = {
  id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  ticket_id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  ticket_number: 42,
  event: "ticket_created",
  matched: true,
  actions_done: ["change_priority: high", "assign_ticket: Priya Shah"],
  error: null,
  stopped: false,
  created_at: "2030-01-10T10:00:00.000Z",
};

function api(rules: Rule[], overrides: Parameters<typeof signedIn>[0] = {}, user = testUser) {
  return signedIn(
    {
      "GET /api/users": () => json(200, { users: [priya] }),
      "GET /api/automation/rules": () => json(200, { rules }),
      "GET /api/automation/sla": () =>
        json(200, {
          targets: emptyTargets(),
          business_hours: { days: [1, 2, 3, 4, 5], opens: "09:00", closes: "17:00" },
          timezone: "UTC",
        }),
      "GET /api/canned-replies": () =>
        json(200, {
          canned_replies: [
            {
              id: "7e6d5c4b-3a29-4817-8f6e-5d4c3b2a1908",
              title: "Refund policy",
              body: "Refunds take 5 days.",
              created_at: "2030-01-10T09:30:00.000Z",
              updated_at: "2030-01-10T09:30:00.000Z",
            },
          ],
        }),
      "GET /api/automation/stats": () =>
        json(200, {
          total_rules: rules.length,
          active_rules: rules.filter((r) => r.is_active).length,
          executions_today: 7,
        }),
      ...overrides,
    },
    user,
  );
}

const card = (label: string) => screen.getByText(label).nextSibling?.textContent;
const bodyOf = (fetchMock: ReturnType<typeof mockApi>, method: string, path: string) => {
  const found = fetchMock.mock.calls.find(([url, init]) => init?.method === method && String(url).endsWith(path));
  return found ? JSON.parse(String(found[1]?.body)) : undefined;
};

describe("the automation screen", () => {
  it("shows the empty state with Create Rule, and the real figures", async () => {
    api([]);
    renderApp("/automation");
    expect(await screen.findByRole("heading", { name: "No automation rules" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Automation" })).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "Create Rule" })).toHaveLength(2);
    await screen.findByText("7");
    expect(card("Total Rules")).toBe("0");
    expect(card("Active Rules")).toBe("0");
    expect(card("Executions Today")).toBe("7");
  });

  it("lists the rules; pause sends only isActive; delete asks the spec's question first", async () => {
    const fetchMock = api([refunds], {
      "PUT /api/automation/rules/0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b": () =>
        json(200, { rule: { ...refunds, is_active: false } }),
      "DELETE /api/automation/rules/0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b": () => json(200, { message: "Rule deleted" }),
    });
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Refunds to billing" });
    expect(item).toHaveTextContent('When: Ticket created and all of: Subject contains "refund"');
    expect(await within(item).findByText(/Assign ticket: Priya Shah/)).toBeInTheDocument();
    expect(item).toHaveTextContent("Change priority: High");

    await user.click(within(item).getByRole("button", { name: "Pause Refunds to billing" }));
    await screen.findByText('Rule "Refunds to billing" paused');
    expect(bodyOf(fetchMock, "PUT", `/automation/rules/${refunds.id}`)).toEqual({ isActive: false });

    await user.click(within(item).getByRole("button", { name: "Delete Refunds to billing" }));
    const dialog = await findOpenDialog("alertdialog");
    expect(dialog).toHaveTextContent('Are you sure you want to delete the rule "Refunds to billing"?');
    expect(calls(fetchMock).some((c) => c.startsWith("DELETE"))).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await screen.findByText('Rule "Refunds to billing" deleted');
    expect(calls(fetchMock).filter((c) => c.startsWith("DELETE"))).toHaveLength(1);
  });

  it("shows statuses, priorities and members by their names, in the list and in the editor", async () => {
    const urgent: Rule = {
      ...refunds,
      id: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
      name: "Urgent to Priya",
      trigger_conditions: {
        event: "ticket_updated",
        after: null,
        match: "all",
        conditions: [
          { field: "ticket.priority", operator: "equals", value: "urgent" },
          { field: "ticket.status", operator: "not_equals", value: "solved" },
          { field: "ticket.assignee_id", operator: "not_equals", value: priya.id },
        ],
      },
      actions: [
        { type: "change_status", status: "pending" },
        { type: "change_priority", priority: "urgent" },
      ],
    };
    api([urgent]);
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Urgent to Priya" });
    await within(item).findByText(/Priya Shah/);
    expect(item).toHaveTextContent(
      'When: Ticket updated and all of: Priority equals "Urgent"; Status does not equal "Solved"; Assignee does not equal "Priya Shah"',
    );
    expect(item).toHaveTextContent("Then: Change status: Pending; Change priority: Urgent");
    expect(item).not.toHaveTextContent(/urgent|solved|pending/);

    await user.click(within(item).getByRole("button", { name: "Edit Urgent to Priya" }));
    const form = await screen.findByRole("form", { name: "Edit Rule" });
    const shown = (label: string) => {
      const select = within(form).getByLabelText(label) as HTMLSelectElement;
      return select.selectedOptions[0]?.textContent;
    };
    expect(shown("Condition 1 value")).toBe("Urgent");
    expect(shown("Condition 2 value")).toBe("Solved");
    expect(shown("Condition 3 value")).toBe("Priya Shah");
    expect(shown("Action 1 status")).toBe("Pending");
    expect(shown("Action 2 priority")).toBe("Urgent");
  });

  it("creates a rule with the spec's defaults and sends it as the spec's call", async () => {
    const fetchMock = api([], {
      "POST /api/automation/rules": () => json(201, { rule: refunds }),
    });
    const { user } = renderApp("/automation");
    await screen.findByRole("heading", { name: "No automation rules" });
    await user.click(screen.getAllByRole("button", { name: "Create Rule" })[0] as HTMLElement);
    const form = await screen.findByRole("form", { name: "Create Rule" });
    expect(within(form).getByLabelText("Trigger event")).toHaveValue("ticket_created");
    expect(within(form).getByLabelText("Action 1")).toHaveValue("assign_ticket");
    expect(within(form).getByRole("checkbox", { name: "Activate this rule immediately" })).toBeChecked();

    await user.click(within(form).getByRole("button", { name: "Create Rule" }));
    expect(await within(form).findByText("Rule name is required")).toBeInTheDocument();
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);

    await user.type(within(form).getByLabelText("Rule name"), "Refunds to billing");
    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    expect(within(form).getByLabelText("Condition 1 field")).toHaveValue("ticket.status");
    expect(within(form).getByLabelText("Condition 1 operator")).toHaveValue("equals");
    expect(within(form).getByLabelText("Condition 1 value")).toHaveValue("");
    await user.selectOptions(within(form).getByLabelText("Condition 1 field"), "ticket.subject");
    await user.selectOptions(within(form).getByLabelText("Condition 1 operator"), "contains");
    await user.type(within(form).getByLabelText("Condition 1 value"), "refund");
    await user.selectOptions(within(form).getByLabelText("Action 1"), "change_priority");
    await user.selectOptions(within(form).getByLabelText("Action 1 priority"), "high");
    await user.click(within(form).getByRole("button", { name: "Add action" }));
    await user.selectOptions(within(form).getByLabelText("Action 2 assignee"), "Priya Shah");
    await user.click(within(form).getByRole("button", { name: "Create Rule" }));
    await screen.findByText("Rule created");
    expect(bodyOf(fetchMock, "POST", "/automation/rules")).toEqual({
      name: "Refunds to billing",
      description: "",
      triggerConditions: {
        event: "ticket_created",
        after: null,
        match: "all",
        conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
      },
      actions: [
        { type: "change_priority", priority: "high" },
        { type: "assign_ticket", assignee_id: priya.id },
      ],
      isActive: true,
    });
  });

  it("asks for an assignee before sending an Assign ticket action with no one chosen", async () => {
    const fetchMock = api([], { "POST /api/automation/rules": () => json(201, { rule: refunds }) });
    const { user } = renderApp("/automation");
    await screen.findByRole("heading", { name: "No automation rules" });
    await user.click(screen.getAllByRole("button", { name: "Create Rule" })[0] as HTMLElement);
    const form = await screen.findByRole("form", { name: "Create Rule" });
    await user.type(within(form).getByLabelText("Rule name"), "Assign new tickets");
    expect(within(form).getByLabelText("Action 1")).toHaveValue("assign_ticket");
    await user.click(within(form).getByRole("button", { name: "Create Rule" }));
    const assignee = within(form).getByLabelText("Action 1 assignee");
    await waitFor(() => expect(assignee).toHaveAccessibleDescription("Choose a member, or Round robin."));
    expect(assignee).toHaveAttribute("aria-invalid", "true");
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);

    await user.selectOptions(assignee, "round_robin");
    await user.click(within(form).getByRole("button", { name: "Create Rule" }));
    await screen.findByText("Rule created");
    expect(bodyOf(fetchMock, "POST", "/automation/rules")).toMatchObject({
      actions: [{ type: "assign_ticket", assignee_id: "round_robin" }],
    });
  });

  it("creates a time-based rule: pending for 7 days, then close", async () => {
    const fetchMock = api([], { "POST /api/automation/rules": () => json(201, { rule: refunds }) });
    const { user } = renderApp("/automation");
    await screen.findByRole("heading", { name: "No automation rules" });
    await user.click(screen.getAllByRole("button", { name: "Create Rule" })[0] as HTMLElement);
    const form = await screen.findByRole("form", { name: "Create Rule" });
    expect(within(form).queryByLabelText("For at least")).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText("Rule name"), "Close quiet tickets");
    await user.selectOptions(within(form).getByLabelText("Trigger event"), "ticket_pending_for");
    await user.clear(within(form).getByLabelText("For at least"));
    await user.type(within(form).getByLabelText("For at least"), "7");
    await user.selectOptions(within(form).getByLabelText("Action 1"), "change_status");
    await user.selectOptions(within(form).getByLabelText("Action 1 status"), "closed");
    await user.click(within(form).getByRole("button", { name: "Create Rule" }));
    await screen.findByText("Rule created");
    expect(bodyOf(fetchMock, "POST", "/automation/rules")).toMatchObject({
      name: "Close quiet tickets",
      triggerConditions: { event: "ticket_pending_for", after: { amount: 7, unit: "days" }, conditions: [] },
      actions: [{ type: "change_status", status: "closed" }],
      isActive: true,
    });
  });

  it("shows the server's reason when a rule is refused, and keeps the form", async () => {
    api([refunds], {
      "PUT /api/automation/rules/0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b": () =>
        json(400, {
          error: "Action 2: the assignee must be an active member of your team",
          code: "VALIDATION_ERROR",
        }),
    });
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Refunds to billing" });
    await user.click(within(item).getByRole("button", { name: "Edit Refunds to billing" }));
    const form = await screen.findByRole("form", { name: "Edit Rule" });
    expect(within(form).getByLabelText("Rule name")).toHaveValue("Refunds to billing");
    expect(within(form).getByLabelText("Condition 1 value")).toHaveValue("refund");
    await user.click(within(form).getByRole("button", { name: "Save Rule" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "Action 2: the assignee must be an active member of your team",
    );
  });

  it("edits a rule's rows: removes a condition, adds one and a comment action, drops an action; sends the rows", async () => {
    const fetchMock = api([refunds], {
      [`PUT /api/automation/rules/${refunds.id}`]: () => json(200, { rule: refunds }),
    });
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Refunds to billing" });
    await user.click(within(item).getByRole("button", { name: "Edit Refunds to billing" }));
    const form = await screen.findByRole("form", { name: "Edit Rule" });
    await user.click(within(form).getByRole("button", { name: "Remove condition 1" }));
    expect(within(form).getByText("No conditions: the rule runs on every such event.")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    await user.selectOptions(within(form).getByLabelText("Condition 1 field"), "ticket.priority");
    await user.selectOptions(within(form).getByLabelText("Condition 1 value"), "Urgent");
    await user.click(within(form).getByRole("button", { name: "Add action" }));
    await user.selectOptions(within(form).getByLabelText("Action 3"), "add_comment");
    await user.type(within(form).getByLabelText("Action 3 comment"), "Hello {{{{ticket.requester_name}}");
    await user.click(within(form).getByRole("checkbox", { name: "Public reply (the customer sees it)" }));
    await user.click(within(form).getByRole("button", { name: "Remove action 1" }));
    expect(within(form).getByLabelText("Action 1")).toHaveValue("assign_ticket");
    expect(within(form).getByLabelText("Action 2")).toHaveValue("add_comment");
    await user.click(within(form).getByRole("checkbox", { name: "Activate this rule immediately" }));
    await user.click(within(form).getByRole("button", { name: "Save Rule" }));
    await screen.findByText("Rule updated");
    expect(bodyOf(fetchMock, "PUT", `/automation/rules/${refunds.id}`)).toEqual({
      name: "Refunds to billing",
      description: "Tag refund requests",
      triggerConditions: {
        event: "ticket_created",
        after: null,
        match: "all",
        conditions: [{ field: "ticket.priority", operator: "equals", value: "urgent" }],
      },
      actions: [
        { type: "assign_ticket", assignee_id: priya.id },
        { type: "add_comment", comment: "Hello {{ticket.requester_name}}", is_public: true },
      ],
      isActive: false,
    });
  });

  it("puts the server's per-field messages under their inputs, not in an alert", async () => {
    api([refunds], {
      [`PUT /api/automation/rules/${refunds.id}`]: () =>
        json(400, {
          error: "A condition's value must be at most 500 characters",
          code: "VALIDATION_ERROR",
          details: [
            {
              path: "triggerConditions.conditions.0.value",
              message: "A condition's value must be at most 500 characters",
            },
            {
              path: "actions.1.assignee_id",
              message: "assign_ticket needs an assignee_id: a member's id or round_robin",
            },
          ],
        }),
    });
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Refunds to billing" });
    await user.click(within(item).getByRole("button", { name: "Edit Refunds to billing" }));
    const form = await screen.findByRole("form", { name: "Edit Rule" });
    await user.click(within(form).getByRole("button", { name: "Save Rule" }));
    await waitFor(() =>
      expect(within(form).getByLabelText("Condition 1 value")).toHaveAccessibleDescription(
        "A condition's value must be at most 500 characters",
      ),
    );
    expect(within(form).getByLabelText("Action 2 assignee")).toHaveAccessibleDescription(
      "assign_ticket needs an assignee_id: a member's id or round_robin",
    );
    expect(within(form).getByLabelText("Condition 1 value")).toHaveAttribute("aria-invalid", "true");
    expect(within(form).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows a rule's run log", async () => {
    api([refunds], {
      "GET /api/automation/rules/0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b/runs": () =>
        json(200, {
          runs: [
            run,
            { ...run, id: "8a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", matched: false, actions_done: [] },
            {
              ...run,
              id: "7a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
              actions_done: [],
              error: "The assignee must be an active member of your team.",
            },
          ],
        }),
    });
    const { user } = renderApp("/automation");
    const item = await screen.findByRole("listitem", { name: "Refunds to billing" });
    await user.click(within(item).getByRole("button", { name: "Run log of Refunds to billing" }));
    const log = await within(item).findByRole("table", { name: "Run log" });
    const rows = within(log).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("#42");
    expect(rows[0]).toHaveTextContent("change_priority: high; assign_ticket: Priya Shah");
    expect(rows[1]).toHaveTextContent("Conditions not met");
    expect(rows[2]).toHaveTextContent("Failed: The assignee must be an active member of your team.");
  });

  it("shows an agent the rules, their log, the figures, the SLA settings and canned replies, with no controls", async () => {
    const agent = { ...testUser, role: "agent" as const };
    const fetchMock = api(
      [refunds, { ...refunds, id: "2e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a0b", name: "Paused one", is_active: false }],
      { [`GET /api/automation/rules/${refunds.id}/runs`]: () => json(200, { runs: [run] }) },
      agent,
    );
    const { user } = renderApp("/automation");
    const rule = await screen.findByRole("listitem", { name: "Refunds to billing" });
    expect(screen.getByText("Read-only: only an admin can change automation.")).toBeInTheDocument();
    expect(within(rule).getByText("Active")).toBeInTheDocument();
    expect(screen.getByRole("listitem", { name: "Paused one" })).toHaveTextContent("Paused");
    await screen.findByText("7");
    expect(card("Executions Today")).toBe("7");
    // No create, edit, delete or pause anywhere; the run log opens.
    for (const name of [
      /Create Rule/,
      /^Edit /,
      /^Delete /,
      /^Pause /,
      /^Activate /,
      /Save SLA targets/,
      /Add canned reply/,
    ]) {
      expect(screen.queryAllByRole("button", { name })).toEqual([]);
    }
    await user.click(within(rule).getByRole("button", { name: "Run log of Refunds to billing" }));
    expect(await within(rule).findByRole("link", { name: "#42" })).toBeInTheDocument();
    // The SLA settings and canned replies are shown, not editable.
    const sla = screen.getByRole("form", { name: "SLA targets" });
    expect(within(sla).getByLabelText("Urgent first response hours")).toBeDisabled();
    expect(within(sla).getByLabelText("Monday")).toBeChecked();
    expect(within(sla).getByLabelText("Monday")).toBeDisabled();
    expect(screen.getByRole("listitem", { name: "Refund policy" })).toHaveTextContent("Refunds take 5 days.");
    expect(screen.queryByRole("form", { name: "Add a canned reply" })).not.toBeInTheDocument();
    expect(calls(fetchMock).filter((c) => !c.startsWith("GET "))).toEqual([]);
  });

  it("says so when the rules cannot be loaded", async () => {
    api([], { "GET /api/automation/rules": () => json(500, { error: "boom", code: "INTERNAL_ERROR" }) });
    renderApp("/automation");
    expect(await screen.findByText("Failed to load automation rules")).toBeInTheDocument();
  });
});
