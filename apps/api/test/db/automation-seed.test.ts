import { createRuleBody, type Rule } from "@cove/contract/automation.ts";
import { describe, expect, it } from "vitest";
import { bearer } from "../helpers.ts";
import { demoAppForFile } from "../support/demo.ts";

// The demo is seeded into an empty database only, so this file always uses its own in-memory one.
const demo = demoAppForFile("cove-rules-seed");

describe("the demo organization's rules", () => {
  it("are valid rules, two running and three paused, and the refund rule runs under the demo's SLA targets", async () => {
    const list = await demo.app.inject({ method: "GET", url: "/api/automation/rules", headers: bearer(demo.token) });
    const rules = list.json().rules as Rule[];
    expect(rules.map((r) => [r.name, r.is_active])).toEqual([
      ["Refunds to billing", true],
      ["Escalate urgent tickets", true],
      ["Share out new tickets", false],
      ["Acknowledge new tickets", false],
      ["Close quiet pending tickets", false],
    ]);
    for (const r of rules) {
      const sent = {
        name: r.name,
        description: r.description,
        triggerConditions: r.trigger_conditions,
        actions: r.actions,
        isActive: r.is_active,
      };
      expect(createRuleBody.safeParse(sent).success, r.name).toBe(true);
    }
    const res = await demo.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(demo.token),
      payload: {
        subject: "Refund for a stove",
        description: "It never lit.",
        requester_name: "Rosa Diaz",
        requester_email: "rosa@example.com",
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json().ticket;
    expect(ticket).toMatchObject({ priority: "high", tags: ["billing"], assignee_id: null, comments: [] });
    // High: first response within 4 calendar hours.
    const sla = await demo.app.inject({
      method: "GET",
      url: `/api/tickets/${ticket.id}/sla`,
      headers: bearer(demo.token),
    });
    expect(sla.json().first_response).toMatchObject({
      state: "on_track",
      due_at: new Date(new Date(ticket.created_at).getTime() + 4 * 3_600_000).toISOString(),
    });
  });
});
