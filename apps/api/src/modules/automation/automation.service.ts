import {
  type AutomationStats,
  type createRuleBody,
  ROUND_ROBIN,
  RULE_RUNS_PAGE,
  type Rule,
  type RuleAction,
  type RuleRun,
  type updateRuleBody,
} from "@cove/contract/automation.ts";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { automationRules, automationRuns } from "../../db/schema/automation.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { ticketNumberOf } from "../tickets/index.ts";

const ruleNotFound = () => notFound("Rule");

const ruleColumns = {
  id: automationRules.id,
  name: automationRules.name,
  description: automationRules.description,
  isActive: automationRules.isActive,
  position: automationRules.position,
  event: automationRules.event,
  afterAmount: automationRules.afterAmount,
  afterUnit: automationRules.afterUnit,
  match: automationRules.match,
  conditions: automationRules.conditions,
  actions: automationRules.actions,
  createdAt: automationRules.createdAt,
  updatedAt: automationRules.updatedAt,
};
type RuleRow = Pick<typeof automationRules.$inferSelect, keyof typeof ruleColumns>;

/** The rule as docs/product.md, "Records" returns it. */
function toRule(row: RuleRow): Rule {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_active: row.isActive,
    position: row.position,
    trigger_conditions: {
      event: row.event,
      after:
        row.afterAmount !== null && row.afterUnit !== null ? { amount: row.afterAmount, unit: row.afterUnit } : null,
      conditions: row.conditions as Rule["trigger_conditions"]["conditions"],
      match: row.match,
    },
    actions: row.actions as Rule["actions"],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const mine = (ctx: Ctx, id: string) => and(eq(automationRules.organizationId, ctx.orgId), eq(automationRules.id, id));

/** The organization's rules in the order they run. */
export async function listRules(ctx: Ctx): Promise<Rule[]> {
  const rows = await ctx.db
    .select(ruleColumns)
    .from(automationRules)
    .where(eq(automationRules.organizationId, ctx.orgId))
    .orderBy(asc(automationRules.position), asc(automationRules.createdAt), asc(automationRules.id));
  return rows.map(toRule);
}

/**
 * Every member an action assigns to must be an active member of this organization (of another one, or inactive:
 * refused with the action's number, so the form can say which).
 */
async function assertAssignees(ctx: Ctx, actions: RuleAction[]): Promise<void> {
  const wanted = actions.flatMap((a, i) =>
    a.type === "assign_ticket" && a.assignee_id !== ROUND_ROBIN ? [{ i, id: a.assignee_id }] : [],
  );
  if (wanted.length === 0) return;
  const found = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.organizationId, ctx.orgId),
        eq(users.status, "active"),
        inArray(
          users.id,
          wanted.map((w) => w.id),
        ),
      ),
    );
  const active = new Set(found.map((u) => u.id));
  const missing = wanted.find((w) => !active.has(w.id));
  if (missing) {
    const message = `Action ${missing.i + 1}: the assignee must be an active member of your team`;
    throw new AppError("VALIDATION_ERROR", message, [{ path: `actions.${missing.i}.assignee_id`, message }]);
  }
}

const ruleObject = (r: { id: string; name: string }) => ({ type: "automation_rule", id: r.id, label: r.name });

export async function createRule(ctx: Ctx, input: z.output<typeof createRuleBody>): Promise<Rule> {
  await assertAssignees(ctx, input.actions);
  const position =
    input.position ??
    (
      await ctx.db
        .select({ next: sql<number>`coalesce(max(${automationRules.position}) + 1, 0)::int` })
        .from(automationRules)
        .where(eq(automationRules.organizationId, ctx.orgId))
    )[0]?.next ??
    0;
  const [row] = await ctx.db
    .insert(automationRules)
    .values({
      organizationId: ctx.orgId,
      name: input.name,
      description: input.description,
      isActive: input.isActive,
      position,
      event: input.triggerConditions.event,
      afterAmount: input.triggerConditions.after?.amount ?? null,
      afterUnit: input.triggerConditions.after?.unit ?? null,
      match: input.triggerConditions.match,
      conditions: input.triggerConditions.conditions,
      actions: input.actions,
    })
    .returning(ruleColumns);
  if (!row) throw new Error("rule insert returned nothing");
  await audit(ctx, "automation_rule.created", ruleObject(row), { active: row.isActive });
  return toRule(row);
}

/** Changes the fields sent: all of them (the edit form), or only isActive (pause/activate), or only position. */
export async function updateRule(ctx: Ctx, id: string, input: z.output<typeof updateRuleBody>): Promise<Rule> {
  if (input.actions) await assertAssignees(ctx, input.actions);
  const changes: Partial<typeof automationRules.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.isActive !== undefined) changes.isActive = input.isActive;
  if (input.position !== undefined) changes.position = input.position;
  if (input.actions) changes.actions = input.actions;
  if (input.triggerConditions) {
    changes.event = input.triggerConditions.event;
    changes.afterAmount = input.triggerConditions.after?.amount ?? null;
    changes.afterUnit = input.triggerConditions.after?.unit ?? null;
    changes.match = input.triggerConditions.match;
    changes.conditions = input.triggerConditions.conditions;
  }
  const [row] = await ctx.db.update(automationRules).set(changes).where(mine(ctx, id)).returning(ruleColumns);
  if (!row) throw ruleNotFound();
  const fields = Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined);
  await audit(ctx, "automation_rule.changed", ruleObject(row), { fields, active: row.isActive });
  return toRule(row);
}

export async function deleteRule(ctx: Ctx, id: string): Promise<void> {
  const [row] = await ctx.db
    .delete(automationRules)
    .where(mine(ctx, id))
    .returning({ id: automationRules.id, name: automationRules.name });
  if (!row) throw ruleNotFound();
  await audit(ctx, "automation_rule.deleted", ruleObject(row));
}

/** The rule's newest runs: what set it off, whether its conditions held, what it did, and any error. */
export async function listRuns(ctx: Ctx, id: string): Promise<RuleRun[]> {
  const [rule] = await ctx.db.select({ id: automationRules.id }).from(automationRules).where(mine(ctx, id));
  if (!rule) throw ruleNotFound();
  // Runs that did something (or tried), and the events whose conditions did not hold for it (automation_misses).
  const rows = await queryRows<{
    id: string;
    ticket_id: string | null;
    ticket_number: number | null;
    event: string;
    matched: boolean;
    actions_done: string[];
    error: string | null;
    stopped: boolean;
    created_at: Date | string;
  }>(
    ctx.db,
    sql`select x.*, ${ticketNumberOf(ctx.orgId, sql`x.ticket_id`)} as ticket_number from (
          (select r.id, r.ticket_id, r.event, r.matched, r.actions_done, r.error, r.stopped, r.created_at
           from automation_runs r
           where r.organization_id = ${ctx.orgId} and r.rule_id = ${id}
           order by r.created_at desc, r.id desc limit ${RULE_RUNS_PAGE})
          union all
          (select m.id, m.ticket_id, m.event, false, '{}'::text[], null::text, false, m.created_at
           from automation_misses m
           where m.organization_id = ${ctx.orgId} and m.rule_ids @> array[${id}]::uuid[]
           order by m.created_at desc, m.id desc limit ${RULE_RUNS_PAGE})
        ) x
        order by x.created_at desc, x.id desc
        limit ${RULE_RUNS_PAGE}`,
  );
  return rows.map((r) => ({
    id: r.id,
    ticket_id: r.ticket_id,
    ticket_number: r.ticket_number,
    event: r.event,
    matched: r.matched,
    actions_done: r.actions_done,
    error: r.error,
    stopped: r.stopped,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/**
 * The three cards. Executions Today: runs whose conditions held (the rule did, or tried, its actions) since midnight
 * in the organization's time zone.
 */
export async function automationStats(ctx: Ctx): Promise<AutomationStats> {
  const [rules] = await ctx.db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${automationRules.isActive})::int`,
    })
    .from(automationRules)
    .where(eq(automationRules.organizationId, ctx.orgId));
  const [runs] = await ctx.db
    .select({ n: count() })
    .from(automationRuns)
    .innerJoin(organizations, eq(organizations.id, automationRuns.organizationId))
    .where(
      and(
        eq(automationRuns.organizationId, ctx.orgId),
        eq(automationRuns.matched, true),
        sql`${automationRuns.createdAt} >= (date_trunc('day', now() at time zone ${organizations.timezone}) at time zone ${organizations.timezone})`,
      ),
    );
  return { total_rules: rules?.total ?? 0, active_rules: rules?.active ?? 0, executions_today: runs?.n ?? 0 };
}
