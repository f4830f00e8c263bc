import {
  ruleActorId,
  SLA_TRIGGERS,
  type SlaTrigger,
  TIME_RULES_EVERY_MINUTES,
  TIME_TRIGGERS,
  type TimeTrigger,
} from "@cove/contract/automation.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { automationRules, automationRuns } from "../../db/schema/automation.ts";
import { now } from "../../platform/clock.ts";
import { type Db, queryRows } from "../../platform/db.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { type TenantCtx, withSystem } from "../../platform/tenancy.ts";
import { findTicketRow, openTicketsCreatedBy, type TicketWait, ticketsWaiting } from "../tickets/index.ts";
import { applyRule, matches, type RuleRow, ruleColumns, ruleOrder } from "./automation.engine.ts";
import { notifySlaDue } from "./sla.notices.ts";
import { addHours, loadConfig, runSlaRecomputes } from "./sla.ts";

/**
 * Time-based rules (docs/product.md: "pending for 3 days -> close"): a scheduled job finds, per active time rule, the
 * tickets that have been in the rule's state for at least its time, and applies the rule to each as the rule (the
 * same conditions and actions as event rules). automation_time_marks remembers (rule, ticket, since when the ticket
 * was in the state): a ticket is acted on once per rule each time it enters the state. Times are read at the clock of
 * platform/clock.ts, so tests can move it.
 */

const HOUR = 3_600_000;
/** Tickets one rule acts on per run at most; the next run (minutes later) takes the rest. */
const BATCH = 200;

const QUEUE: JobQueue<object> = {
  name: "automation-timers",
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 10 * 60,
};

/** How the tickets a time trigger acts on wait (tickets.due.ts: which tickets, and since when). */
const WAIT: Record<TimeTrigger, TicketWait> = {
  ticket_pending_for: "pending",
  ticket_open_for: "open",
  ticket_unassigned_for: "unassigned",
};

/** The events the job checks: time in a state, and SLA breaches. */
const SCHEDULED = [...TIME_TRIGGERS, ...SLA_TRIGGERS];

interface TimeRule extends RuleRow {
  event: TimeTrigger | SlaTrigger;
  afterAmount: number | null;
  afterUnit: "hours" | "days" | null;
}

/** One pass over every organization's active time rules; answers how many tickets were acted on. */
export async function runTimeRules(db: Db, log?: FastifyBaseLogger): Promise<number> {
  // Which organizations have any: read as the owner role, across organizations (ids only).
  const orgs = await queryRows<{ organization_id: string }>(
    db,
    sql`select distinct organization_id from automation_rules
        where is_active and event in (${sql.join(
          SCHEDULED.map((e) => sql`${e}`),
          sql`, `,
        )})`,
  );
  let acted = 0;
  for (const { organization_id: orgId } of orgs) {
    const rules = await withSystem(db, orgId, "automation", (ctx) =>
      ctx.db
        .select({
          ...ruleColumns,
          event: automationRules.event,
          afterAmount: automationRules.afterAmount,
          afterUnit: automationRules.afterUnit,
        })
        .from(automationRules)
        .where(
          and(
            eq(automationRules.organizationId, orgId),
            eq(automationRules.isActive, true),
            inArray(automationRules.event, SCHEDULED),
          ),
        )
        .orderBy(...ruleOrder),
    );
    for (const rule of rules as TimeRule[]) {
      try {
        acted += await runTimeRule(db, orgId, rule);
      } catch (err) {
        log?.error({ err, orgId, ruleId: rule.id }, "time-based rule failed");
      }
    }
  }
  return acted;
}

/** Applies a scheduled rule to one due ticket: marks it (once per rule per state), logs the run. */
async function actOn(system: TenantCtx, rule: TimeRule, id: string, since: string): Promise<void> {
  const ticket = await findTicketRow(system.db, system.orgId, id);
  if (!ticket) return;
  await system.db.execute(
    sql`insert into automation_time_marks (organization_id, rule_id, ticket_id, state_since)
        values (${system.orgId}, ${rule.id}, ${id}, ${since}::timestamptz)`,
  );
  const run = { organizationId: system.orgId, ruleId: rule.id, ticketId: id, event: rule.event };
  if (!matches(rule, ticket)) {
    await system.db.insert(automationRuns).values({ ...run, matched: false });
    return;
  }
  const outcome = await applyRule(system, "automation_time_rule", rule, ticket);
  await system.db.insert(automationRuns).values({ ...run, matched: true, ...outcome });
}

/**
 * An SLA breach rule: the open or pending tickets whose first response (no public reply from the team yet) or
 * resolution is past due under their priority's target. The database narrows them by calendar hours (a due time in
 * business hours is never earlier); sla.ts says which are due. Each ticket once per rule (state_since: its creation).
 */
async function runSlaRule(db: Db, orgId: string, rule: TimeRule & { event: SlaTrigger }): Promise<number> {
  return withSystem(db, orgId, ruleActorId(rule.id, rule.name), async (system) => {
    const config = await loadConfig(system);
    const targets = config.targets;
    const at = now();
    const firstResponse = rule.event === "ticket_first_response_breached";
    let acted = 0;
    for (const target of targets) {
      const hours = firstResponse ? target.first_response_hours : target.resolution_hours;
      if (hours === null) continue;
      const earliest = new Date(at.getTime() - hours * HOUR);
      const due = await queryRows<{ id: string; since: string; created: Date | string }>(
        system.db,
        sql`select t.id, t.created_at::text as since, t.created_at as created
            from (${openTicketsCreatedBy(orgId, target.priority, earliest, firstResponse)}) t
            where not exists (select 1 from automation_time_marks m
                              where m.organization_id = ${orgId} and m.rule_id = ${rule.id}
                                and m.ticket_id = t.id and m.state_since = t.created_at)
            order by t.created_at
            limit ${BATCH}`,
      );
      for (const row of due) {
        if (addHours(new Date(row.created), hours, target.business_hours && config.window, config.timezone) > at)
          continue;
        await actOn(system, rule, row.id, row.since);
        acted++;
      }
    }
    return acted;
  });
}

/** One rule in one transaction, acting as the rule: each due ticket, each under a savepoint of its own. */
async function runTimeRule(db: Db, orgId: string, rule: TimeRule): Promise<number> {
  if (rule.event === "ticket_first_response_breached" || rule.event === "ticket_resolution_breached") {
    return runSlaRule(db, orgId, { ...rule, event: rule.event });
  }
  if (rule.afterAmount === null || rule.afterUnit === null) return 0;
  const wait = rule.afterAmount * (rule.afterUnit === "days" ? 24 : 1) * HOUR;
  const cutoff = new Date(now().getTime() - wait);
  const waiting = ticketsWaiting(orgId, WAIT[rule.event]);
  return withSystem(db, orgId, ruleActorId(rule.id, rule.name), async (system) => {
    // since goes out and back as text: a JavaScript Date would drop its microseconds, and the mark would never match.
    const due = await queryRows<{ id: string; since: string }>(
      system.db,
      sql`select x.id, x.since::text as since from (${waiting}) x
          where x.since <= ${cutoff.toISOString()}::timestamptz
            and not exists (select 1 from automation_time_marks m
                            where m.organization_id = ${orgId} and m.rule_id = ${rule.id}
                              and m.ticket_id = x.id and m.state_since = x.since)
          order by x.since
          limit ${BATCH}`,
    );
    for (const { id, since } of due) await actOn(system, rule, id, since);
    return due.length;
  });
}

/** Checks the time rules every few minutes (pg-boss runs the schedule once across instances). */
export function scheduleTimeRules(jobs: Jobs, db: Db, log: FastifyBaseLogger): void {
  jobs.work(QUEUE, async () => {
    await runTimeRules(db, log);
    // Open tickets whose due times a change of settings (or an interrupted job) left to work out again, then the
    // SLA notifications due by now.
    await runSlaRecomputes(db);
    await notifySlaDue(db, log);
  });
  jobs.schedule(QUEUE, `*/${TIME_RULES_EVERY_MINUTES} * * * *`);
}
