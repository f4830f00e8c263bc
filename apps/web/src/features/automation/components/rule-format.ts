import type { ActionType, ConditionOperator, Rule, RuleEvent } from "@cove/contract/automation.ts";

export const EVENT_LABELS: Record<RuleEvent, string> = {
  ticket_created: "Ticket created",
  ticket_updated: "Ticket updated",
  ticket_status_changed: "Ticket status changed",
  ticket_assigned: "Ticket assigned",
  comment_added: "Comment added",
  ticket_pending_for: "Ticket pending for…",
  ticket_open_for: "Ticket open for…",
  ticket_unassigned_for: "Ticket unassigned for…",
  ticket_first_response_breached: "SLA first response breached",
  ticket_resolution_breached: "SLA resolution breached",
};

/** "Ticket created", or "Ticket pending for 3 days" for a time-based rule. */
export function describeTrigger(trigger: Rule["trigger_conditions"]): string {
  const label = EVENT_LABELS[trigger.event];
  if (!trigger.after) return label;
  const { amount, unit } = trigger.after;
  return `${label.replace("…", "")} ${amount} ${amount === 1 ? unit.replace(/s$/, "") : unit}`;
}

export const FIELD_LABELS: Record<string, string> = {
  "ticket.status": "Status",
  "ticket.priority": "Priority",
  "ticket.subject": "Subject",
  "ticket.requester_email": "Requester email",
  "ticket.assignee_id": "Assignee",
};

export const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: "equals",
  not_equals: "does not equal",
  contains: "contains",
  not_contains: "does not contain",
  is_empty: "is empty",
  is_not_empty: "is not empty",
};

export const ACTION_LABELS: Record<ActionType, string> = {
  assign_ticket: "Assign ticket",
  change_status: "Change status",
  change_priority: "Change priority",
  add_tags: "Add tags",
  add_comment: "Add comment",
  escalate: "Escalate",
};

/** One line per action, as the rule list shows it. */
export function describeAction(action: Rule["actions"][number], memberName: (id: string) => string): string {
  const type = String(action.type) as ActionType;
  const label = ACTION_LABELS[type] ?? type;
  switch (type) {
    case "assign_ticket":
      return `${label}: ${action.assignee_id === "round_robin" ? "round robin" : memberName(String(action.assignee_id))}`;
    case "change_status":
      return `${label}: ${String(action.status)}`;
    case "change_priority":
      return `${label}: ${String(action.priority)}`;
    case "add_tags":
      return `${label}: ${(action.tags as string[]).join(", ")}`;
    case "add_comment":
      return `${label} (${action.is_public ? "public reply" : "internal note"})`;
    default:
      return label;
  }
}
