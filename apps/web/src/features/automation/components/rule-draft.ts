import {
  ACTION_TYPES,
  type ActionType,
  type CONDITION_FIELDS,
  CONDITION_OPERATORS,
  type ConditionOperator,
  type CreateRuleBody,
  createRuleBody,
  isTimeTrigger,
  MATCH_MODES,
  RULE_EVENTS,
  type Rule,
  TIME_UNITS,
  VALUE_OPERATORS,
} from "@cove/contract/automation.ts";
import type { TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import type { Path } from "react-hook-form";
import { z } from "zod";

/** Under an Assign ticket action with no one chosen, before the form is sent (the server's words are for API clients). */
export const CHOOSE_ASSIGNEE = "Choose a member, or Round robin.";

/**
 * The rule form's values: the rule as the person edits it. The name and an Assign ticket action's assignee are checked
 * here (the name with the contract's own rule); the rest is checked by the server, field by field, and its messages
 * land under the inputs (ruleField).
 */
export const ruleDraft = z.object({
  name: createRuleBody.shape.name,
  description: z.string(),
  event: z.enum(RULE_EVENTS),
  /** A time-based trigger's wait, as typed. */
  afterAmount: z.string(),
  afterUnit: z.enum(TIME_UNITS),
  match: z.enum(MATCH_MODES),
  conditions: z.array(z.object({ field: z.string(), operator: z.enum(CONDITION_OPERATORS), value: z.string() })),
  /** Every action's fields at once, so switching an action's type keeps what was typed. */
  actions: z.array(
    z
      .object({
        type: z.enum(ACTION_TYPES),
        assignee_id: z.string(),
        status: z.string(),
        priority: z.string(),
        tags: z.string(),
        comment: z.string(),
        is_public: z.boolean(),
      })
      .refine((a) => a.type !== "assign_ticket" || a.assignee_id !== "", {
        path: ["assignee_id"],
        message: CHOOSE_ASSIGNEE,
      }),
  ),
  isActive: z.boolean(),
});
export type RuleDraft = z.input<typeof ruleDraft>;
export type DraftCondition = RuleDraft["conditions"][number];
export type DraftAction = RuleDraft["actions"][number];

/** docs/product.md, "Automation": a new condition is ticket.status equals (empty); a new action is assign_ticket. */
export const newCondition = (): DraftCondition => ({ field: "ticket.status", operator: "equals", value: "" });
export const newAction = (type: ActionType = "assign_ticket"): DraftAction => ({
  type,
  assignee_id: "",
  status: "open",
  priority: "normal",
  tags: "",
  comment: "",
  is_public: false,
});

export function draftOf(rule: Rule | null): RuleDraft {
  if (!rule) {
    return {
      name: "",
      description: "",
      event: "ticket_created",
      afterAmount: "3",
      afterUnit: "days",
      match: "all",
      conditions: [],
      actions: [newAction()],
      isActive: true,
    };
  }
  return {
    name: rule.name,
    description: rule.description,
    event: rule.trigger_conditions.event,
    afterAmount: String(rule.trigger_conditions.after?.amount ?? 3),
    afterUnit: rule.trigger_conditions.after?.unit ?? "days",
    match: rule.trigger_conditions.match,
    conditions: rule.trigger_conditions.conditions.map((c) => ({
      field: c.field,
      operator: c.operator as ConditionOperator,
      value: c.value,
    })),
    actions: rule.actions.map((a) => ({
      ...newAction(a.type as ActionType),
      assignee_id: typeof a.assignee_id === "string" ? a.assignee_id : "",
      status: typeof a.status === "string" ? a.status : "open",
      priority: typeof a.priority === "string" ? a.priority : "normal",
      tags: Array.isArray(a.tags) ? a.tags.join(", ") : "",
      comment: typeof a.comment === "string" ? a.comment : "",
      is_public: a.is_public === true,
    })),
    isActive: rule.is_active,
  };
}

function actionBody(a: DraftAction): CreateRuleBody["actions"][number] {
  switch (a.type) {
    case "assign_ticket":
      return { type: a.type, assignee_id: a.assignee_id };
    case "change_status":
      return { type: a.type, status: a.status as (typeof TICKET_STATUSES)[number] };
    case "change_priority":
      return { type: a.type, priority: a.priority as (typeof TICKET_PRIORITIES)[number] };
    case "add_tags":
      return { type: a.type, tags: a.tags.split(",").filter((t) => t.trim() !== "") };
    case "add_comment":
      return { type: a.type, comment: a.comment, is_public: a.is_public };
    default:
      return { type: "escalate" };
  }
}

/** The rule as docs/product.md, "API calls" sends it: name, description, triggerConditions, actions, isActive. */
export function bodyOf(draft: z.output<typeof ruleDraft>): CreateRuleBody {
  return {
    name: draft.name,
    description: draft.description,
    triggerConditions: {
      event: draft.event,
      after: isTimeTrigger(draft.event) ? { amount: Number(draft.afterAmount), unit: draft.afterUnit } : null,
      match: draft.match,
      conditions: draft.conditions.map((c) => ({
        field: c.field as (typeof CONDITION_FIELDS)[number],
        operator: c.operator,
        value: VALUE_OPERATORS.includes(c.operator) ? c.value : "",
      })),
    },
    actions: draft.actions.map(actionBody),
    isActive: draft.isActive,
  };
}

const ACTION_INPUTS = ["assignee_id", "status", "priority", "tags", "comment"] as const;
const index = (segment: string | undefined) => (segment !== undefined && /^\d+$/.test(segment) ? segment : null);

/**
 * The input a server message belongs under: "triggerConditions.conditions.0.value" is condition 1's value,
 * "actions.1.tags.0" is action 2's tags; a message about a whole row goes under the row's first choice.
 */
export function ruleField(path: string): Path<RuleDraft> | undefined {
  const [top, second, third, fourth] = path.split(".");
  if (top === "name" || top === "description") return top;
  if (top === "actions") {
    const i = index(second);
    if (i === null) return undefined;
    const input = ACTION_INPUTS.find((f) => f === third);
    return `actions.${Number(i)}.${input ?? "type"}`;
  }
  if (top !== "triggerConditions") return undefined;
  if (second === "event" || second === "match") return second;
  if (second === "after") return third === "unit" ? "afterUnit" : "afterAmount";
  const i = index(third);
  if (second !== "conditions" || i === null) return undefined;
  return `conditions.${Number(i)}.${fourth === "field" || fourth === "operator" ? fourth : "value"}`;
}
