import type { CreateRuleBody } from "@cove/contract/automation.ts";
import type { Tx } from "../platform/db.ts";
import { automationRules, slaRecomputes, slaTargets } from "./schema/automation.ts";

type SeedRule = Required<Pick<CreateRuleBody, "name" | "description" | "actions" | "isActive">> & {
  triggerConditions: Required<CreateRuleBody["triggerConditions"]>;
};

/**
 * The demo organization's rules: two that run (refunds to billing, urgent tickets escalated) and three paused ones that
 * show what else rules do (round-robin, an acknowledgement, closing quiet pending tickets). Those are paused so the
 * demo's own tickets and journeys behave as a visitor expects until they turn them on.
 */
const DEMO_RULES: SeedRule[] = [
  {
    name: "Refunds to billing",
    description: "Refund requests are tagged billing and handled first.",
    triggerConditions: {
      event: "ticket_created",
      after: null,
      match: "all",
      conditions: [{ field: "ticket.subject", operator: "contains", value: "refund" }],
    },
    actions: [
      { type: "change_priority", priority: "high" },
      { type: "add_tags", tags: ["billing"] },
    ],
    isActive: true,
  },
  {
    name: "Escalate urgent tickets",
    description: "An urgent ticket notifies every admin at once.",
    triggerConditions: {
      event: "ticket_created",
      after: null,
      match: "all",
      conditions: [{ field: "ticket.priority", operator: "equals", value: "urgent" }],
    },
    actions: [{ type: "escalate" }],
    isActive: true,
  },
  {
    name: "Share out new tickets",
    description: "Unassigned new tickets go to the agents in turn.",
    triggerConditions: {
      event: "ticket_created",
      after: null,
      match: "all",
      conditions: [{ field: "ticket.assignee_id", operator: "is_empty", value: "" }],
    },
    actions: [{ type: "assign_ticket", assignee_id: "round_robin" }],
    isActive: false,
  },
  {
    name: "Acknowledge new tickets",
    description: "Tells the customer we have their request.",
    triggerConditions: { event: "ticket_created", after: null, match: "all", conditions: [] },
    actions: [
      {
        type: "add_comment",
        comment:
          'Hi {{ticket.requester_name}}, thanks for writing to Acme Outdoor about "{{ticket.subject}}". ' +
          "Your request is #{{ticket.ticket_number}}; we answer within one business day.",
        is_public: true,
      },
    ],
    isActive: false,
  },
  {
    name: "Close quiet pending tickets",
    description: "A ticket waiting on the customer for a week is closed, with a note to say so.",
    triggerConditions: {
      event: "ticket_pending_for",
      after: { amount: 7, unit: "days" },
      match: "all",
      conditions: [],
    },
    actions: [
      { type: "change_status", status: "closed" },
      {
        type: "add_comment",
        comment: "Closed after a week without an answer from {{ticket.requester_name}}.",
        is_public: false,
      },
    ],
    isActive: false,
  },
];

export async function seedDemoRules(tx: Tx, orgId: string): Promise<void> {
  await tx.insert(automationRules).values(
    DEMO_RULES.map((rule, position) => ({
      organizationId: orgId,
      name: rule.name,
      description: rule.description,
      isActive: rule.isActive,
      position,
      event: rule.triggerConditions.event,
      match: rule.triggerConditions.match,
      afterAmount: rule.triggerConditions.after?.amount ?? null,
      afterUnit: rule.triggerConditions.after?.unit ?? null,
      conditions: rule.triggerConditions.conditions,
      actions: rule.actions,
    })),
  );
}

/** The demo's SLA targets: urgent and high in calendar hours, normal and low in business hours. */
export async function seedDemoSla(tx: Tx, orgId: string): Promise<void> {
  await tx.insert(slaTargets).values([
    { organizationId: orgId, priority: "urgent", firstResponseHours: 1, resolutionHours: 8, businessHours: false },
    { organizationId: orgId, priority: "high", firstResponseHours: 4, resolutionHours: 24, businessHours: false },
    { organizationId: orgId, priority: "normal", firstResponseHours: 8, resolutionHours: 40, businessHours: true },
    { organizationId: orgId, priority: "low", firstResponseHours: 16, resolutionHours: 80, businessHours: true },
  ]);
  // The demo's tickets were written straight in: the sla-recompute job stores their due times (main.ts runs it).
  await tx.insert(slaRecomputes).values({ organizationId: orgId }).onConflictDoNothing();
}
