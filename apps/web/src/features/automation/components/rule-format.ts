import type { ActionType, ConditionOperator, Rule, RuleEvent } from "@cove/contract/automation.ts";
import { PRIORITY_LABELS, STATUS_LABELS } from "../../tickets/index.ts";

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

/** The labelled values of a condition's field, where it has a fixed list (status, priority). */
export const VALUE_LABELS: Record<string, Record<string, string>> = {
  "ticket.status": STATUS_LABELS,
  "ticket.priority": PRIORITY_LABELS,
};

/** A condition's value as people read it: "Urgent" for urgent (conditions ignore case), a member's name for an id. */
export function valueLabel(field: string, value: string, memberName: (id: string) => string): string {
  if (field === "ticket.assignee_id") return memberName(value);
  return VALUE_LABELS[field]?.[value.toLowerCase()] ?? value;
}

/** 'Priority equals "Urgent"', as the rule list shows a condition. */
export function describeCondition(
  condition: Rule["trigger_conditions"]["conditions"][number],
  memberName: (id: string) => string,
): string {
  const { field, operator, value } = condition;
  const operatorLabel = OPERATOR_LABELS[operator as ConditionOperator] ?? operator;
  return `${FIELD_LABELS[field] ?? field} ${operatorLabel}${value ? ` "${valueLabel(field, value, memberName)}"` : ""}`;
}

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
      return `${label}: ${STATUS_LABELS[action.status as keyof typeof STATUS_LABELS] ?? String(action.status)}`;
    case "change_priority":
      return `${label}: ${PRIORITY_LABELS[action.priority as keyof typeof PRIORITY_LABELS] ?? String(action.priority)}`;
    case "add_tags":
      return `${label}: ${(action.tags as string[]).join(", ")}`;
    case "add_comment":
      return `${label} (${action.is_public ? "public reply" : "internal note"})`;
    default:
      return label;
  }
}
