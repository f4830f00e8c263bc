import { MATCH_MODES, RULE_EVENTS, TIME_UNITS } from "@cove/contract/automation.ts";
import { SLA_KINDS, TICKET_PRIORITIES } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, refCascade, refSetNull, timestamps, timestamptz, updatedAt } from "./columns.ts";
import { organizationId, tenantRow } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/**
 * An organization's automation rules (docs/product.md, "Records"): on a ticket event, when the conditions hold, do the actions.
 * Conditions and actions are stored as the contract validated them (packages/contract/src/automation.ts); position
 * is the order the admin set, in which the rules of one event run.
 */
export const automationRules = pgTable(
  "automation_rules",
  {
    ...tenantRow(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
    position: integer("position").notNull().default(0),
    event: text("event", { enum: RULE_EVENTS }).notNull(),
    /** A time-based rule's wait (e.g. 3 days pending); null for the event triggers. */
    afterAmount: integer("after_amount"),
    afterUnit: text("after_unit", { enum: TIME_UNITS }),
    match: text("match", { enum: MATCH_MODES }).notNull().default("all"),
    conditions: jsonb("conditions").notNull().default(sql`'[]'::jsonb`),
    actions: jsonb("actions").notNull().default(sql`'[]'::jsonb`),
    /** The member round-robin assignment gave the last ticket to: the next goes to the one after. */
    lastAssigneeId: refSetNull("last_assignee_id", () => users.id),
    ...timestamps(),
  },
  // What every ticket event reads: the organization's active rules of that event, in order.
  (t) => [index("automation_rules_org_event_idx").on(t.organizationId, t.event, t.isActive, t.position)],
);

/**
 * Every run of a rule on a ticket event: whether its conditions held, the actions it did, an error, or that it was
 * stopped by the loop guard. The rule's log and Executions Today are read from here.
 */
export const automationRuns = pgTable(
  "automation_runs",
  {
    ...tenantRow(),
    ruleId: refCascade("rule_id", () => automationRules.id).notNull(),
    ticketId: refSetNull("ticket_id", () => tickets.id),
    event: text("event").notNull(),
    matched: boolean("matched").notNull(),
    actionsDone: text("actions_done").array().notNull().default(sql`'{}'::text[]`),
    error: text("error"),
    stopped: boolean("stopped").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("automation_runs_org_rule_created_idx").on(t.organizationId, t.ruleId, t.createdAt.desc()),
    // Executions Today: the organization's matched runs since a time.
    index("automation_runs_org_created_idx").on(t.organizationId, t.createdAt).where(sql`${t.matched}`),
  ],
);

/**
 * The rules an event was checked against whose conditions did not hold, one row per event: a run each, logged as
 * compactly as an event with 50 rules allows (one row instead of 50; the rule's log reads them by rule_ids).
 */
export const automationMisses = pgTable(
  "automation_misses",
  {
    ...tenantRow(),
    ticketId: refSetNull("ticket_id", () => tickets.id),
    event: text("event").notNull(),
    ruleIds: uuid("rule_ids").array().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("automation_misses_rule_ids_idx").using("gin", t.ruleIds)],
);

/**
 * Which tickets a time-based rule has acted on, and since when the ticket was in the state then: the rule acts once
 * per ticket each time it enters the state (a ticket pending again later has a new state_since).
 */
export const automationTimeMarks = pgTable(
  "automation_time_marks",
  {
    organizationId: organizationId(),
    ruleId: refCascade("rule_id", () => automationRules.id).notNull(),
    ticketId: refCascade("ticket_id", () => tickets.id).notNull(),
    stateSince: timestamptz("state_since").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("automation_time_marks_key").on(t.organizationId, t.ruleId, t.ticketId, t.stateSince)],
);

/** SLA targets per priority (packages/contract/src/sla.ts); a priority without a row has none. */
export const slaTargets = pgTable(
  "sla_targets",
  {
    organizationId: organizationId(),
    priority: text("priority", { enum: TICKET_PRIORITIES }).notNull(),
    firstResponseHours: doublePrecision("first_response_hours"),
    resolutionHours: doublePrecision("resolution_hours"),
    businessHours: boolean("business_hours").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [unique("sla_targets_key").on(t.organizationId, t.priority)],
);

/**
 * An organization's business hours, which SLA targets in business hours count in (in the organization's time zone):
 * working days (0 is Sunday) and opening and closing minutes since midnight. No row: Monday to Friday, 09:00-17:00.
 */
export const businessHours = pgTable("business_hours", {
  organizationId: organizationId().primaryKey(),
  days: smallint("days").array().notNull(),
  opensMinute: integer("opens_minute").notNull(),
  closesMinute: integer("closes_minute").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Organizations whose open tickets' SLA due times must be worked out again (their targets or business hours changed,
 * or they had targets before due times were stored): the sla-recompute job does it in batches and removes the row.
 */
export const slaRecomputes = pgTable("sla_recomputes", {
  organizationId: organizationId().primaryKey(),
  requestedAt: timestamptz("requested_at").notNull().defaultNow(),
});

/** The SLA notifications sent: once per ticket, per due time (first response, resolution), per state. */
export const slaNotices = pgTable(
  "sla_notices",
  {
    organizationId: organizationId(),
    ticketId: refCascade("ticket_id", () => tickets.id).notNull(),
    kind: text("kind", { enum: SLA_KINDS }).notNull(),
    state: text("state", { enum: ["close", "breached"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("sla_notices_key").on(t.organizationId, t.ticketId, t.kind, t.state)],
);

/** Canned replies: an organization's saved replies, with placeholders (packages/contract/src/canned-replies.ts). */
export const cannedReplies = pgTable(
  "canned_replies",
  {
    ...tenantRow(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    ...timestamps(),
  },
  (t) => [index("canned_replies_org_title_idx").on(t.organizationId, t.title)],
);
