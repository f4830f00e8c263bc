import { z } from "zod";
import { messageAnswer } from "./auth.ts";
import { cannedReplyAnswer, cannedReplyBody, cannedReplyListAnswer } from "./canned-replies.ts";
import { textRequired } from "./messages.ts";
import { defineRoute, idParams } from "./routes.ts";
import { slaTargetsAnswer, slaTargetsBody, ticketSlaAnswer } from "./sla.ts";
import { TAG_MAX, TAGS_PER_TICKET_MAX, TICKET_PRIORITIES, TICKET_STATUSES } from "./tickets.ts";

/**
 * Automation rules (docs/product.md: rules really run). A rule is returned as
 * { id, name, description, is_active, trigger_conditions: { event, conditions[] }, actions[] } and sent as
 * { name, description, triggerConditions, actions, isActive }, as the spec's calls have it.
 */

/** The trigger events, ticket_created first (the default). */
export const TRIGGER_EVENTS = [
  "ticket_created",
  "ticket_updated",
  "ticket_status_changed",
  "ticket_assigned",
  "comment_added",
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/**
 * Time-based triggers (docs/product.md, "Beyond the brief"): the ticket has been pending, open, or unassigned (and not solved or
 * closed) for a time. A scheduled job checks them; each ticket is acted on once per rule each time it enters the state.
 */
export const TIME_TRIGGERS = ["ticket_pending_for", "ticket_open_for", "ticket_unassigned_for"] as const;
export type TimeTrigger = (typeof TIME_TRIGGERS)[number];
/** SLA breaches (packages/contract/src/sla.ts): checked by the same job, once per ticket per rule. */
export const SLA_TRIGGERS = ["ticket_first_response_breached", "ticket_resolution_breached"] as const;
export type SlaTrigger = (typeof SLA_TRIGGERS)[number];
export const RULE_EVENTS = [...TRIGGER_EVENTS, ...TIME_TRIGGERS, ...SLA_TRIGGERS] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];
export const isTimeTrigger = (event: string): event is TimeTrigger =>
  (TIME_TRIGGERS as readonly string[]).includes(event);
export const TIME_UNITS = ["hours", "days"] as const;
/** How often the scheduled job looks for tickets that have waited long enough, in minutes. */
export const TIME_RULES_EVERY_MINUTES = 5;

export const CONDITION_FIELDS = [
  "ticket.status",
  "ticket.priority",
  "ticket.subject",
  "ticket.requester_email",
  "ticket.assignee_id",
] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export const CONDITION_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "is_empty",
  "is_not_empty",
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
/** The operators that compare with a value; is_empty and is_not_empty need none. */
export const VALUE_OPERATORS: readonly ConditionOperator[] = ["equals", "not_equals", "contains", "not_contains"];

export const ACTION_TYPES = [
  "assign_ticket",
  "change_status",
  "change_priority",
  "add_tags",
  "add_comment",
  "escalate",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** assign_ticket's assignee_id for "the next active agent in turn" instead of one member. */
export const ROUND_ROBIN = "round_robin";
/**
 * A rule acts as the system actor "rule:<its id>:<its name>": the ticket's activity and comments show its changes
 * under the rule's name, and the engine knows which rule made a change (a rule is not set off by its own).
 */
const RULE_ACTOR = /^rule:([0-9a-f-]{36}):(.*)$/s;
export const ruleActorId = (ruleId: string, name: string) => `rule:${ruleId}:${name}`;
/** The rule's id and name in a system actor's id, or null for another actor. */
export function readRuleActor(actorId: string): { ruleId: string; name: string } | null {
  const m = RULE_ACTOR.exec(actorId);
  return m ? { ruleId: m[1] as string, name: m[2] as string } : null;
}
/** How many rule-made changes may set off further rules in a row before the chain is stopped (and logged). */
export const AUTOMATION_MAX_DEPTH = 3;
/** The placeholders a rule's comment may use. */
export const COMMENT_PLACEHOLDERS = [
  "ticket.requester_name",
  "ticket.requester_email",
  "ticket.subject",
  "ticket.ticket_number",
  "ticket.status",
  "ticket.priority",
] as const;
export const RULE_NAME_MAX = 120;
export const RULE_DESCRIPTION_MAX = 1000;
export const RULE_COMMENT_MAX = 10_000;
export const RULE_CONDITIONS_MAX = 20;
export const RULE_ACTIONS_MAX = 10;

const noNul = (s: string) => !s.includes("\u0000");
const oneOf = (what: string, list: readonly string[]) => `${what} must be one of ${list.join(", ")}`;

export const conditionSchema = z
  .strictObject(
    {
      field: z.enum(CONDITION_FIELDS, { error: `Unknown condition field: use one of ${CONDITION_FIELDS.join(", ")}` }),
      operator: z.enum(CONDITION_OPERATORS, { error: oneOf("The operator", CONDITION_OPERATORS) }),
      value: z
        .string({ error: "A condition's value must be text" })
        .max(500, "A condition's value must be at most 500 characters")
        .refine(noNul, "A condition's value contains an invalid character")
        .optional()
        .default(""),
    },
    { error: "Each condition needs a field, an operator and a value" },
  )
  .superRefine((c, check) => {
    const needsValue = VALUE_OPERATORS.includes(c.operator);
    if (needsValue && c.value.trim() === "") {
      check.addIssue({ code: "custom", path: ["value"], message: `The operator ${c.operator} needs a value` });
      return;
    }
    if (!needsValue || c.operator.endsWith("contains")) return;
    const allowed =
      c.field === "ticket.status" ? TICKET_STATUSES : c.field === "ticket.priority" ? TICKET_PRIORITIES : null;
    if (allowed && !(allowed as readonly string[]).includes(c.value.trim().toLowerCase())) {
      check.addIssue({ code: "custom", path: ["value"], message: oneOf(`The value of ${c.field}`, allowed) });
    }
  });
export type Condition = z.output<typeof conditionSchema>;

const ASSIGNEE_NEEDED = `assign_ticket needs an assignee_id: a member's id or ${ROUND_ROBIN}`;

const actionSchemas = [
  z.strictObject({
    type: z.literal("assign_ticket"),
    // The id's own message too: for text that is no id (an empty choice) zod reports the id's issue, not the union's.
    assignee_id: z.union([z.literal(ROUND_ROBIN), z.uuid({ error: ASSIGNEE_NEEDED })], { error: ASSIGNEE_NEEDED }),
  }),
  z.strictObject({
    type: z.literal("change_status"),
    status: z.enum(TICKET_STATUSES, { error: oneOf("change_status's status", TICKET_STATUSES) }),
  }),
  z.strictObject({
    type: z.literal("change_priority"),
    priority: z.enum(TICKET_PRIORITIES, { error: oneOf("change_priority's priority", TICKET_PRIORITIES) }),
  }),
  z.strictObject({
    type: z.literal("add_tags"),
    tags: z
      .array(
        z
          .string({ error: "A tag must be text" })
          .trim()
          .min(1, "A tag cannot be empty")
          .max(TAG_MAX, `A tag must be at most ${TAG_MAX} characters`)
          .refine(noNul, "A tag contains an invalid character"),
        { error: "add_tags needs tags: a list of words" },
      )
      .min(1, "add_tags needs at least one tag")
      .max(TAGS_PER_TICKET_MAX, `add_tags takes at most ${TAGS_PER_TICKET_MAX} tags`)
      .transform((tags) => [...new Set(tags.map((t) => t.toLowerCase()))]),
  }),
  z.strictObject({
    type: z.literal("add_comment"),
    comment: z
      .string({ error: "add_comment needs a comment" })
      .trim()
      .min(1, "add_comment needs a comment")
      .max(RULE_COMMENT_MAX, `A rule's comment must be at most ${RULE_COMMENT_MAX} characters`)
      .refine(noNul, "The comment contains an invalid character"),
    /** A public reply the customer sees, or an internal note (the default). */
    is_public: z.boolean({ error: "is_public must be true or false" }).optional().default(false),
  }),
  z.strictObject({ type: z.literal("escalate") }),
] as const;

export const actionSchema = z.discriminatedUnion("type", actionSchemas, {
  error: `Unknown action type: use one of ${ACTION_TYPES.join(", ")}`,
});
export type RuleAction = z.output<typeof actionSchema>;

export const MATCH_MODES = ["all", "any"] as const;

export const afterSchema = z.strictObject(
  {
    amount: z
      .number({ error: "The time must be a whole number of hours or days" })
      .int("The time must be a whole number of hours or days")
      .min(1, "The time must be at least 1")
      .max(1000, "The time must be at most 1000"),
    unit: z.enum(TIME_UNITS, { error: "The time's unit must be hours or days" }),
  },
  { error: "after needs an amount and a unit (hours or days)" },
);
export type After = z.output<typeof afterSchema>;

export const triggerConditionsSchema = z
  .strictObject(
    {
      event: z.enum(RULE_EVENTS, { error: `Unknown trigger event: use one of ${RULE_EVENTS.join(", ")}` }),
      /** For a time-based trigger only: how long the ticket must have been in its state. */
      after: afterSchema.nullable().optional().default(null),
      conditions: z
        .array(conditionSchema, { error: "Conditions must be a list" })
        .max(RULE_CONDITIONS_MAX, `A rule can have at most ${RULE_CONDITIONS_MAX} conditions`)
        .optional()
        .default([]),
      /** all (the default): every condition must hold; any: one is enough. */
      match: z.enum(MATCH_MODES, { error: "match must be all or any" }).optional().default("all"),
    },
    { error: "triggerConditions needs an event and its conditions" },
  )
  .superRefine((t, check) => {
    if (isTimeTrigger(t.event) && !t.after) {
      check.addIssue({ code: "custom", path: ["after"], message: `${t.event} needs a time: after {amount, unit}` });
    }
    if (!isTimeTrigger(t.event) && t.after) {
      check.addIssue({ code: "custom", path: ["after"], message: "Only a time-based trigger takes a time" });
    }
  });
export type TriggerConditions = z.output<typeof triggerConditionsSchema>;

const descriptionField = z
  .string({ error: "Description must be text" })
  .trim()
  .max(RULE_DESCRIPTION_MAX, `Description must be at most ${RULE_DESCRIPTION_MAX} characters`)
  .refine(noNul, "Description contains an invalid character");

const ruleFields = {
  name: z
    .string({ error: textRequired("Rule name") })
    .trim()
    .min(1, "Rule name is required")
    .max(RULE_NAME_MAX, `Rule name must be at most ${RULE_NAME_MAX} characters`)
    .refine(noNul, "Rule name contains an invalid character"),
  description: descriptionField.optional().default(""),
  triggerConditions: triggerConditionsSchema,
  actions: z
    .array(actionSchema, { error: "Actions must be a list" })
    .min(1, "Add at least one action")
    .max(RULE_ACTIONS_MAX, `A rule can have at most ${RULE_ACTIONS_MAX} actions`),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional().default(true),
  /** Where the rule runs among the organization's rules (0 first); a new rule goes last when absent. */
  position: z
    .number({ error: "position must be a whole number" })
    .int("position must be a whole number")
    .min(0, "position cannot be negative")
    .max(10_000, "position must be at most 10000")
    .optional(),
};

export const createRuleBody = z.strictObject(ruleFields);
export type CreateRuleBody = z.input<typeof createRuleBody>;

/** The same fields, or only isActive (pause/activate), or only position (reorder). */
export const updateRuleBody = z
  .strictObject({
    name: ruleFields.name.optional(),
    description: descriptionField.optional(),
    triggerConditions: ruleFields.triggerConditions.optional(),
    actions: ruleFields.actions.optional(),
    isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
    position: ruleFields.position,
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one field to change");
export type UpdateRuleBody = z.input<typeof updateRuleBody>;

export const ruleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  is_active: z.boolean(),
  position: z.number().int(),
  trigger_conditions: z.object({
    event: z.enum(RULE_EVENTS),
    after: z.object({ amount: z.number().int(), unit: z.enum(TIME_UNITS) }).nullable(),
    conditions: z.array(z.object({ field: z.string(), operator: z.string(), value: z.string() })),
    match: z.enum(MATCH_MODES),
  }),
  actions: z.array(z.record(z.string(), z.unknown())),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Rule = z.infer<typeof ruleSchema>;

export const ruleAnswer = z.object({ rule: ruleSchema });
export const ruleListAnswer = z.object({ rules: z.array(ruleSchema) });
export type RuleListAnswer = z.infer<typeof ruleListAnswer>;

/** The three cards: Executions Today counts the runs whose conditions held, today in the organization's time zone. */
export const automationStats = z.object({
  total_rules: z.number().int(),
  active_rules: z.number().int(),
  executions_today: z.number().int(),
});
export type AutomationStats = z.infer<typeof automationStats>;

/** One run of a rule on a ticket event: whether its conditions held, what it did, or why it failed or stopped. */
export const ruleRunSchema = z.object({
  id: z.uuid(),
  ticket_id: z.uuid().nullable(),
  ticket_number: z.number().int().nullable(),
  event: z.string(),
  matched: z.boolean(),
  actions_done: z.array(z.string()),
  error: z.string().nullable(),
  stopped: z.boolean(),
  created_at: z.string(),
});
export type RuleRun = z.infer<typeof ruleRunSchema>;
export const RULE_RUNS_PAGE = 50;
export const ruleRunsAnswer = z.object({ runs: z.array(ruleRunSchema) });
export type RuleRunsAnswer = z.infer<typeof ruleRunsAnswer>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["automation"];

/**
 * The rules (docs/product.md, "API calls") with their run log and the screen's figures, the SLA targets and the canned
 * replies. Changing them is for admins (the server enforces it, 403); agents read them, as the screen shows them.
 */
export const automationApi = {
  listRules: defineRoute({
    method: "GET",
    path: "/api/automation/rules",
    summary: "The rules, in the order they run",
    tags,
    access: "authenticated",
    answers: { 200: ruleListAnswer },
  }),
  createRule: defineRoute({
    method: "POST",
    path: "/api/automation/rules",
    summary: "Create a rule",
    tags,
    access: "admin",
    body: createRuleBody,
    answers: { 201: ruleAnswer },
  }),
  updateRule: defineRoute({
    method: "PUT",
    path: "/api/automation/rules/:id",
    summary: "Change a rule: all its fields, or only isActive (pause/activate), or only position",
    tags,
    access: "admin",
    params: idParams,
    body: updateRuleBody,
    answers: { 200: ruleAnswer },
  }),
  deleteRule: defineRoute({
    method: "DELETE",
    path: "/api/automation/rules/:id",
    summary: "Delete a rule",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
  ruleRuns: defineRoute({
    method: "GET",
    path: "/api/automation/rules/:id/runs",
    summary: "A rule's newest runs: the event, whether its conditions held, what it did, errors",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: ruleRunsAnswer },
  }),
  stats: defineRoute({
    method: "GET",
    path: "/api/automation/stats",
    summary: "Total Rules, Active Rules and Executions Today",
    tags,
    access: "authenticated",
    answers: { 200: automationStats },
  }),
  slaTargets: defineRoute({
    method: "GET",
    path: "/api/automation/sla",
    summary: "SLA targets per priority, and the business hours they count in",
    tags,
    access: "authenticated",
    answers: { 200: slaTargetsAnswer },
  }),
  putSlaTargets: defineRoute({
    method: "PUT",
    path: "/api/automation/sla",
    summary:
      "Set the SLA targets of the priorities sent, and the business hours when sent; open tickets' due times follow within moments",
    tags,
    access: "admin",
    body: slaTargetsBody,
    answers: { 200: slaTargetsAnswer },
  }),
  // A ticket's due times are for the whole team, like the ticket itself.
  ticketSla: defineRoute({
    method: "GET",
    path: "/api/tickets/:id/sla",
    summary: "A ticket's first-response and resolution due times under its priority's SLA targets",
    tags,
    access: "authenticated",
    actors: ["api_key"],
    params: idParams,
    answers: { 200: ticketSlaAnswer },
  }),
  // Canned replies: the whole team inserts them; admins keep the list (like the rules).
  listCannedReplies: defineRoute({
    method: "GET",
    path: "/api/canned-replies",
    summary: "The organization's canned replies",
    tags,
    access: "authenticated",
    answers: { 200: cannedReplyListAnswer },
  }),
  createCannedReply: defineRoute({
    method: "POST",
    path: "/api/canned-replies",
    summary: "Save a canned reply",
    tags,
    access: "admin",
    body: cannedReplyBody,
    answers: { 201: cannedReplyAnswer },
  }),
  updateCannedReply: defineRoute({
    method: "PUT",
    path: "/api/canned-replies/:id",
    summary: "Change a canned reply",
    tags,
    access: "admin",
    params: idParams,
    body: cannedReplyBody,
    answers: { 200: cannedReplyAnswer },
  }),
  deleteCannedReply: defineRoute({
    method: "DELETE",
    path: "/api/canned-replies/:id",
    summary: "Delete a canned reply",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
};
