import {
  AUTOMATION_MAX_DEPTH,
  type Condition,
  type MATCH_MODES,
  ROUND_ROBIN,
  type RuleAction,
  readRuleActor,
  ruleActorId,
  type TriggerEvent,
} from "@cove/contract/automation.ts";
import { fillPlaceholders } from "@cove/contract/canned-replies.ts";
import type { DomainEvent, EventType } from "@cove/contract/events.ts";
import { TAGS_PER_TICKET_MAX } from "@cove/contract/tickets.ts";
import { and, asc, eq, sql } from "drizzle-orm";
import { automationMisses, automationRules, automationRuns } from "../../db/schema/automation.ts";
import { users } from "../../db/schema/users.ts";
import { AppError } from "../../platform/errors.ts";
import type { EventBus, EventContext } from "../../platform/events.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { notify } from "../notifications/index.ts";
import { addComment, changeTicket, findTicketRow, type TicketRow } from "../tickets/index.ts";

/**
 * The rule engine (docs/product.md: rules really run). It is an in-transaction handler of every ticket event, so a rule's
 * change commits or rolls back with the change that set it off, and the answer to that request already shows it.
 * Each rule acts through the tickets service as the system actor "rule:<id>:<name>", so its changes are recorded in the
 * ticket's activity under the rule's name and emit their own events, which may set off further rules: past
 * AUTOMATION_MAX_DEPTH such steps the chain stops and the stopped run is logged. A rule whose action fails (its
 * assignee was deactivated since) is rolled back alone, to a savepoint, and logged with the error: the change that
 * set it off still succeeds.
 */

const TRIGGERS = {
  "ticket.created": "ticket_created",
  "ticket.updated": "ticket_updated",
  "ticket.status_changed": "ticket_status_changed",
  "ticket.assigned": "ticket_assigned",
  "comment.added": "comment_added",
} as const satisfies Partial<Record<EventType, TriggerEvent>>;
type TicketEventType = keyof typeof TRIGGERS;

export function registerAutomationHandlers(bus: EventBus): void {
  bus.onInTransaction(Object.keys(TRIGGERS) as TicketEventType[], runRules);
}

export interface RuleRow {
  id: string;
  name: string;
  match: (typeof MATCH_MODES)[number];
  conditions: unknown;
  actions: unknown;
}

type NewRun = typeof automationRuns.$inferInsert;

/** What running a rule reads of it. */
export const ruleColumns = {
  id: automationRules.id,
  name: automationRules.name,
  match: automationRules.match,
  conditions: automationRules.conditions,
  actions: automationRules.actions,
};

/** The order the rules of one event run in: the admin's, then the oldest first. */
export const ruleOrder = [asc(automationRules.position), asc(automationRules.createdAt), asc(automationRules.id)];

async function runRules(ctx: EventContext, event: DomainEvent<TicketEventType>): Promise<void> {
  const trigger = TRIGGERS[event.type];
  const rules: RuleRow[] = await ctx.db
    .select(ruleColumns)
    .from(automationRules)
    .where(
      and(
        eq(automationRules.organizationId, ctx.orgId),
        eq(automationRules.event, trigger),
        eq(automationRules.isActive, true),
      ),
    )
    .orderBy(...ruleOrder);
  if (rules.length === 0) return;
  const ticketId = event.data.ticket_id;
  let ticket = await findTicketRow(ctx.db, ctx.orgId, ticketId);
  if (!ticket) return;
  const runs: NewRun[] = [];
  const missed: string[] = [];
  const run = (rule: RuleRow, fields: Partial<NewRun>): NewRun => ({
    organizationId: ctx.orgId,
    ruleId: rule.id,
    ticketId,
    event: trigger,
    matched: false,
    ...fields,
  });
  // A rule is not set off by its own change (a rule adding a note on comment_added would otherwise answer itself
  // until the loop guard stops it); other rules are, up to the guard.
  const byRule = event.actor.kind === "system" ? readRuleActor(event.actor.id)?.ruleId : undefined;
  for (const rule of rules) {
    if (byRule === rule.id) continue;
    if (!matches(rule, ticket)) {
      missed.push(rule.id);
      continue;
    }
    if (ctx.depth >= AUTOMATION_MAX_DEPTH) {
      runs.push(
        run(rule, {
          matched: true,
          stopped: true,
          error: `Stopped: rules set each other off more than ${AUTOMATION_MAX_DEPTH} times in a row`,
        }),
      );
      continue;
    }
    const system = ctx.asSystem(ruleActorId(rule.id, rule.name));
    const outcome = await applyRule(system, `automation_rule_${ctx.depth}`, rule, ticket);
    runs.push(run(rule, { matched: true, ...outcome }));
    // What this rule changed is what the next rule's conditions see.
    if (outcome.actionsDone.length > 0) ticket = (await findTicketRow(ctx.db, ctx.orgId, ticketId)) ?? ticket;
  }
  if (runs.length > 0) await ctx.db.insert(automationRuns).values(runs);
  // The runs whose conditions did not hold: one row for all of them (an event with 50 rules writes 1 row, not 50).
  if (missed.length > 0) {
    await ctx.db
      .insert(automationMisses)
      .values({ organizationId: ctx.orgId, ticketId, event: trigger, ruleIds: missed });
  }
}

/**
 * A rule's actions on a ticket, done as the rule (system: the transaction acting as "rule:<id>:<name>"), all or none: a
 * failing action rolls the rule's earlier ones back to a savepoint named savepointName, and is answered as the error.
 */
export async function applyRule(
  system: TenantCtx,
  savepointName: string,
  rule: RuleRow,
  ticket: TicketRow,
): Promise<{ actionsDone: string[]; error: string | null }> {
  const savepoint = sql.raw(savepointName);
  await system.db.execute(sql`savepoint ${savepoint}`);
  const done: string[] = [];
  try {
    for (const action of rule.actions as RuleAction[]) {
      done.push(await act(system, rule, ticket, action));
    }
    await system.db.execute(sql`release savepoint ${savepoint}`);
    return { actionsDone: done, error: null };
  } catch (err) {
    await system.db.execute(sql`rollback to savepoint ${savepoint}`);
    await system.db.execute(sql`release savepoint ${savepoint}`);
    const message = err instanceof Error ? err.message : String(err);
    return { actionsDone: [], error: message.slice(0, 500) };
  }
}

/** The value a condition reads, as text ("" for no assignee). */
function fieldValue(field: Condition["field"], ticket: TicketRow): string {
  switch (field) {
    case "ticket.status":
      return ticket.status;
    case "ticket.priority":
      return ticket.priority;
    case "ticket.subject":
      return ticket.subject;
    case "ticket.requester_email":
      return ticket.requesterEmail;
    case "ticket.assignee_id":
      return ticket.assigneeId ?? "";
  }
}

/** One condition on a ticket; text compares without regard to case or surrounding spaces. */
export function holds(condition: Condition, ticket: TicketRow): boolean {
  const value = fieldValue(condition.field, ticket).trim().toLocaleLowerCase();
  const wanted = condition.value.trim().toLocaleLowerCase();
  switch (condition.operator) {
    case "equals":
      return value === wanted;
    case "not_equals":
      return value !== wanted;
    case "contains":
      return value.includes(wanted);
    case "not_contains":
      return !value.includes(wanted);
    case "is_empty":
      return value === "";
    case "is_not_empty":
      return value !== "";
  }
}

/** all: every condition holds; any: one does. A rule without conditions always matches. */
export function matches(rule: RuleRow, ticket: TicketRow): boolean {
  const conditions = rule.conditions as Condition[];
  if (conditions.length === 0) return true;
  return rule.match === "any" ? conditions.some((c) => holds(c, ticket)) : conditions.every((c) => holds(c, ticket));
}

/** Does one action through the tickets service, as the rule; answers what it did, for the run log. */
async function act(system: TenantCtx, rule: RuleRow, ticket: TicketRow, action: RuleAction): Promise<string> {
  switch (action.type) {
    case "assign_ticket": {
      const assigneeId = action.assignee_id === ROUND_ROBIN ? await nextInTurn(system, rule.id) : action.assignee_id;
      await changeTicket(system, ticket.id, { assignee_id: assigneeId });
      return `assign_ticket: ${await memberName(system, assigneeId)}`;
    }
    case "change_status":
      await changeTicket(system, ticket.id, { status: action.status });
      return `change_status: ${action.status}`;
    case "change_priority":
      await changeTicket(system, ticket.id, { priority: action.priority });
      return `change_priority: ${action.priority}`;
    case "add_tags": {
      const current = (await findTicketRow(system.db, system.orgId, ticket.id))?.tags ?? ticket.tags;
      const tags = [...new Set([...current, ...action.tags])];
      if (tags.length > TAGS_PER_TICKET_MAX) {
        throw new AppError("BAD_REQUEST", `A ticket can have at most ${TAGS_PER_TICKET_MAX} tags`);
      }
      await changeTicket(system, ticket.id, { tags });
      return `add_tags: ${action.tags.join(", ")}`;
    }
    case "add_comment": {
      const current = (await findTicketRow(system.db, system.orgId, ticket.id)) ?? ticket;
      await addComment(system, ticket.id, {
        body: ticketPlaceholders(action.comment, current),
        is_public: action.is_public,
      });
      return action.is_public ? "add_comment: public reply" : "add_comment: internal note";
    }
    case "escalate": {
      await changeTicket(system, ticket.id, { priority: "urgent" });
      const admins = await system.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.organizationId, system.orgId), eq(users.role, "admin"), eq(users.status, "active")));
      await notify(
        system,
        admins.map((a) => ({
          userId: a.id,
          type: "escalated" as const,
          actorName: rule.name,
          title: `#${ticket.ticketNumber} ${ticket.subject}`,
          link: `/tickets/${ticket.id}`,
          ticketId: ticket.id,
        })),
      );
      return `escalate: priority urgent, ${admins.length} admin${admins.length === 1 ? "" : "s"} notified`;
    }
  }
}

/** A rule's comment with the ticket's placeholders filled (packages/contract/src/canned-replies.ts). */
export function ticketPlaceholders(text: string, ticket: TicketRow): string {
  return fillPlaceholders(text, {
    "ticket.requester_name": ticket.requesterName,
    "ticket.requester_email": ticket.requesterEmail,
    "ticket.subject": ticket.subject,
    "ticket.ticket_number": String(ticket.ticketNumber),
    "ticket.status": ticket.status,
    "ticket.priority": ticket.priority,
  });
}

/**
 * Round-robin: the active agent after the one this rule assigned last (by when they joined), skipping inactive ones;
 * with no active agent, the active admins take turns. The rule's row is locked, so two tickets at once get two turns.
 */
async function nextInTurn(ctx: TenantCtx, ruleId: string): Promise<string> {
  const [rule] = await ctx.db
    .select({ last: automationRules.lastAssigneeId })
    .from(automationRules)
    .where(and(eq(automationRules.organizationId, ctx.orgId), eq(automationRules.id, ruleId)))
    .for("update");
  const active = await ctx.db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.status, "active")))
    .orderBy(asc(users.createdAt), asc(users.id));
  const agents = active.filter((u) => u.role === "agent");
  const turn = agents.length > 0 ? agents : active;
  if (turn.length === 0) throw new AppError("BAD_REQUEST", "There is no active member to assign the ticket to.");
  const at = turn.findIndex((u) => u.id === rule?.last);
  const next = turn[(at + 1) % turn.length];
  if (!next) throw new Error("round-robin found nobody");
  await ctx.db
    .update(automationRules)
    .set({ lastAssigneeId: next.id })
    .where(and(eq(automationRules.organizationId, ctx.orgId), eq(automationRules.id, ruleId)));
  return next.id;
}

async function memberName(ctx: TenantCtx, id: string): Promise<string> {
  const [u] = await ctx.db
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, id)));
  return u ? `${u.first} ${u.last}`.trim() : id;
}
