import { emptyTargets } from "@cove/contract/sla.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser, trialAnswer } from "../../../test/render-app.tsx";
import { formatDateTime } from "../../tickets/index.ts";
import { me, ticket } from "../../tickets/test/ticket-fixtures.ts";

const slaAnswer = {
  targets: emptyTargets(),
  business_hours: { days: [1, 2, 3, 4, 5], opens: "09:00", closes: "17:00" },
  timezone: "Europe/Paris",
};

describe("SLA", () => {
  it("shows a ticket's due times and how they stand, and nothing without a target", async () => {
    storeSession();
    const current = ticket({ priority: "urgent" });
    const other = ticket({ id: "3c2b1a0f-9e8d-4c7b-8a69-5f4e3d2c1b0a", priority: "low" });
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      [`GET /api/tickets/${current.id}/sla`]: () =>
        json(200, {
          first_response: { due_at: "2030-01-10T10:00:00.000Z", state: "breached", done_at: null },
          resolution: { due_at: "2030-01-10T13:00:00.000Z", state: "close", done_at: null },
        }),
      [`GET /api/tickets/${other.id}`]: () => json(200, { ticket: other }),
      [`GET /api/tickets/${other.id}/sla`]: () => json(200, { first_response: null, resolution: null }),
    });
    const { router } = renderApp(`/tickets/${current.id}`);
    const panel = await screen.findByRole("region", { name: "SLA" });
    expect(within(panel).getByText("First response").nextSibling).toHaveTextContent(/^Breached/);
    expect(within(panel).getByText("Resolution").nextSibling).toHaveTextContent(/^Close to breach/);
    // The due time is written as every other time on the ticket's page (its Details), not in the browser's own format.
    const due = within(panel).getByText(formatDateTime("2030-01-10T13:00:00.000Z"));
    expect(due).toHaveAttribute("dateTime", "2030-01-10T13:00:00.000Z");
    expect(due.parentElement).toHaveTextContent(`due ${formatDateTime("2030-01-10T13:00:00.000Z")}`);
    await router.navigate(`/tickets/${other.id}`);
    await screen.findByText(other.subject);
    expect(screen.queryByRole("region", { name: "SLA" })).not.toBeInTheDocument();
  });

  /** The automation screen's answers, the SLA targets saved as sent. */
  const mockSlaScreen = () =>
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/trial/status": () => json(200, trialAnswer),
      "GET /api/users": () => json(200, { users: [me] }),
      "GET /api/automation/rules": () => json(200, { rules: [] }),
      "GET /api/automation/stats": () => json(200, { total_rules: 0, active_rules: 0, executions_today: 0 }),
      "GET /api/automation/sla": () => json(200, slaAnswer),
      "PUT /api/automation/sla": (init) => json(200, { ...slaAnswer, ...JSON.parse(String(init?.body)) }),
    });

  it("lets an admin set the targets per priority and the business hours", async () => {
    storeSession();
    const fetchMock = mockSlaScreen();
    const { user } = renderApp("/automation");
    const form = await screen.findByRole("form", { name: "SLA targets" });
    await user.type(within(form).getByLabelText("Urgent first response hours"), "1");
    await user.type(within(form).getByLabelText("Urgent resolution hours"), "4");
    await user.click(within(form).getByLabelText("Urgent in business hours"));
    expect(screen.getByText(/in your business hours below \(Europe\/Paris/)).toBeInTheDocument();
    await user.click(within(form).getByLabelText("Friday"));
    await user.click(within(form).getByLabelText("Saturday"));
    const opens = within(form).getByLabelText("Opens");
    await user.clear(opens);
    await user.type(opens, "08:30");
    await user.click(within(form).getByRole("button", { name: "Save SLA targets" }));
    await screen.findByText("SLA targets saved");
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    const body = JSON.parse(String(sent?.[1]?.body));
    expect(body.targets).toHaveLength(4);
    expect(body.targets[3]).toEqual({
      priority: "urgent",
      first_response_hours: 1,
      resolution_hours: 4,
      business_hours: true,
    });
    expect(body.targets[0]).toEqual({
      priority: "low",
      first_response_hours: null,
      resolution_hours: null,
      business_hours: false,
    });
    expect(body.business_hours).toEqual({ days: [1, 2, 3, 4, 6], opens: "08:30", closes: "17:00" });
  });

  it("saves business hours that run past midnight, and says how they count", async () => {
    storeSession();
    const fetchMock = mockSlaScreen();
    const { user } = renderApp("/automation");
    const form = await screen.findByRole("form", { name: "SLA targets" });
    expect(within(form).getByText(/closing time before the opening time runs past midnight/)).toBeInTheDocument();
    for (const [label, time] of [
      ["Opens", "22:00"],
      ["Closes", "06:00"],
    ] as const) {
      const input = within(form).getByLabelText(label);
      await user.clear(input);
      await user.type(input, time);
    }
    await user.click(within(form).getByRole("button", { name: "Save SLA targets" }));
    await screen.findByText("SLA targets saved");
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(sent?.[1]?.body)).business_hours).toEqual({
      days: [1, 2, 3, 4, 5],
      opens: "22:00",
      closes: "06:00",
    });
  });
});
