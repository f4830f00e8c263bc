import {
  type BusinessHours,
  DEFAULT_BUSINESS_HOURS,
  dueState,
  emptyTargets,
  minutesOf,
  type SlaClock,
  type SlaTarget,
  type SlaTargetsAnswer,
  type slaTargetsBody,
  type TicketSlaAnswer,
} from "@cove/contract/sla.ts";
import type { TicketPriority } from "@cove/contract/tickets.ts";
import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { businessHours, slaRecomputes, slaTargets } from "../../db/schema/automation.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { now } from "../../platform/clock.ts";
import { type Db, type Queryable, queryRows } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { EventBus } from "../../platform/events.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { type TenantCtx, withSystem } from "../../platform/tenancy.ts";
import {
  fillFirstResponses,
  findDueTimes,
  findTicketRow,
  firstTeamReplyAt,
  noteFirstResponse,
  openTicketsAfter,
  refreshBusinessMinutes,
  writeDueTimes,
} from "../tickets/index.ts";

/**
 * SLA due times (docs/decisions/2026-11-25-sla-in-the-list.md). A ticket's first-response and resolution due times
 * are stored on the ticket and kept right here: on creation and on a change of priority (in-transaction handlers of
 * the ticket's events), on the team's first public reply, on a reopen, and when an admin changes the targets or the
 * business hours (the organization's open tickets, in batches, by the sla-recompute job). The solve needs nothing:
 * the due time a ticket waits on next (tickets.sla_due_at) is a generated column of its status and these.
 */

const MINUTE = 60_000;
/** The statuses a ticket waits on a due time in. */
const OPEN: readonly string[] = ["open", "pending"];
/** Open tickets whose due times one transaction works out again. */
const RECOMPUTE_BATCH = 500;
/** Answered or solved tickets whose stored business minutes one transaction works out again. */
const MINUTES_BATCH = 2000;

/** Business hours as the computation reads them: working days and minutes since midnight. */
export interface OpeningWindow {
  days: readonly number[];
  opens: number;
  closes: number;
}

export interface SlaConfig {
  targets: SlaTarget[];
  timezone: string;
  window: OpeningWindow;
}

const toWindow = (h: { days: readonly number[]; opens: string; closes: string }): OpeningWindow => ({
  days: h.days,
  opens: minutesOf(h.opens),
  closes: minutesOf(h.closes),
});
const clockText = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
export const DEFAULT_WINDOW = toWindow(DEFAULT_BUSINESS_HOURS);

/** The organization's targets for every priority (none set: null hours). */
export async function getTargets(ctx: { db: Queryable; orgId: string }): Promise<SlaTarget[]> {
  const rows = await ctx.db
    .select({
      priority: slaTargets.priority,
      first: slaTargets.firstResponseHours,
      resolution: slaTargets.resolutionHours,
      business: slaTargets.businessHours,
    })
    .from(slaTargets)
    .where(eq(slaTargets.organizationId, ctx.orgId))
    .orderBy(asc(slaTargets.priority));
  return emptyTargets().map((empty) => {
    const row = rows.find((r) => r.priority === empty.priority);
    return row
      ? {
          priority: row.priority,
          first_response_hours: row.first,
          resolution_hours: row.resolution,
          business_hours: row.business,
        }
      : empty;
  });
}

/** Everything a due time depends on: the targets, the organization's time zone and its business hours. */
export async function loadConfig(ctx: { db: Queryable; orgId: string }): Promise<SlaConfig> {
  const [org] = await ctx.db
    .select({
      timezone: organizations.timezone,
      days: businessHours.days,
      opens: businessHours.opensMinute,
      closes: businessHours.closesMinute,
    })
    .from(organizations)
    .leftJoin(businessHours, eq(businessHours.organizationId, organizations.id))
    .where(eq(organizations.id, ctx.orgId));
  const window =
    org?.days && org.opens !== null && org.closes !== null
      ? { days: org.days, opens: org.opens, closes: org.closes }
      : DEFAULT_WINDOW;
  return { targets: await getTargets(ctx), timezone: org?.timezone ?? "UTC", window };
}

/** The screen's answer: targets, business hours and the time zone they are read in. */
export async function getSlaSettings(ctx: TenantCtx): Promise<SlaTargetsAnswer> {
  const config = await loadConfig(ctx);
  return {
    targets: config.targets,
    business_hours: {
      days: [...config.window.days],
      opens: clockText(config.window.opens),
      closes: clockText(config.window.closes),
    },
    timezone: config.timezone,
  };
}

/**
 * Replaces the targets of the priorities sent (the others keep theirs) and the business hours when sent; the open
 * tickets' due times are then worked out again in the background (the sla-recompute job).
 */
export async function putTargets(
  ctx: TenantCtx,
  input: z.output<typeof slaTargetsBody>,
  jobs: Jobs,
): Promise<SlaTargetsAnswer> {
  for (const t of input.targets) {
    await ctx.db
      .insert(slaTargets)
      .values({
        organizationId: ctx.orgId,
        priority: t.priority,
        firstResponseHours: t.first_response_hours,
        resolutionHours: t.resolution_hours,
        businessHours: t.business_hours,
      })
      .onConflictDoUpdate({
        target: [slaTargets.organizationId, slaTargets.priority],
        set: {
          firstResponseHours: t.first_response_hours,
          resolutionHours: t.resolution_hours,
          businessHours: t.business_hours,
          updatedAt: new Date(),
        },
      });
  }
  if (input.business_hours) await putBusinessHours(ctx, input.business_hours);
  if (input.targets.length > 0 || input.business_hours) await requestRecompute(ctx, jobs);
  return getSlaSettings(ctx);
}

async function putBusinessHours(ctx: TenantCtx, hours: BusinessHours): Promise<void> {
  const window = toWindow(hours);
  const values = { days: [...window.days], opensMinute: window.opens, closesMinute: window.closes };
  await ctx.db
    .insert(businessHours)
    .values({ organizationId: ctx.orgId, ...values })
    .onConflictDoUpdate({ target: businessHours.organizationId, set: { ...values, updatedAt: new Date() } });
}

/** Formatters with these options, one per time zone, each made once: building one is slow. */
function perZone(options: Intl.DateTimeFormatOptions): (timeZone: string) => Intl.DateTimeFormat {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = made.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
      made.set(timeZone, format);
    }
    return format;
  };
}

const clockOptions = { hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" } as const;
const dateClock = perZone({ year: "numeric", month: "numeric", day: "numeric", ...clockOptions });

/**
 * start plus hours, counted in business hours (window: the working days and opening hours in timeZone, past midnight
 * when it closes before it opens) or, with window false, in calendar hours. The business hours are the day's opening
 * instant to its closing instant (openingsOf), the same spans businessMinutesCounter and the database's
 * business_minutes_between count, so a due time is always that many counted business hours away: a change of clocks
 * inside the hours lengthens or shortens them as it happens, and a time the clocks show twice is the later one.
 */
export function addHours(start: Date, hours: number, window: OpeningWindow | false, timeZone: string): Date {
  if (!window) return new Date(start.getTime() + hours * 3_600_000);
  let at = start.getTime();
  let left = hours * 60;
  for (const [opens, closes] of openingsOf(window, timeZone, at)) {
    if (left <= 0) break;
    if (closes <= at) continue;
    const from = Math.max(at, opens);
    const open = (closes - from) / MINUTE;
    if (open >= left) return new Date(from + left * MINUTE);
    left -= open;
    at = closes;
  }
  return new Date(at);
}

const DAY = 86_400_000;

/** The UTC midnight of an instant's local date in a time zone (the calendar day it falls on there). */
function localDay(at: number, timeZone: string): number {
  return Math.floor((at + offsetAt(at, timeZone)) / DAY) * DAY;
}

/**
 * The opening windows as instants, [opens, closes], in order, from the one of the local day before `from` (one that
 * runs past midnight may still be open) on, for at most 100 years. A window whose closing is not after its opening
 * (the clocks skip it) is left out.
 */
function* openingsOf(window: OpeningWindow, timeZone: string, from: number): Generator<[number, number]> {
  const spans = window.closes <= window.opens;
  const first = localDay(from, timeZone) - DAY;
  for (let day = first; day < first + 36_525 * DAY; day += DAY) {
    if (!window.days.includes(new Date(day).getUTCDay())) continue;
    const opens = instantOf(day, window.opens, timeZone);
    const closes = instantOf(spans ? day + DAY : day, window.closes, timeZone);
    if (closes > opens) yield [opens, closes];
  }
}

/** The time zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(at: number, timeZone: string): number {
  const p = Object.fromEntries(
    dateClock(timeZone)
      .formatToParts(new Date(at))
      .map((x) => [x.type, Number(x.value)]),
  );
  const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time of a calendar day has in a time zone (day: milliseconds of that date's midnight as
 * if it were UTC), read as PostgreSQL reads `timestamp AT TIME ZONE` (business_minutes_between): a time the clocks
 * show twice (the hour the autumn change repeats) is the later one, in standard time; a time they skip (the spring
 * change) is read in the offset before the change, so it falls as far after it. The offsets tried are those a day
 * before and a day after (no zone changes its clocks twice in two days).
 */
function instantOf(day: number, minuteOfDay: number, timeZone: string): number {
  const wall = day + minuteOfDay * MINUTE;
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const shown = [wall - before, wall - after].filter((at) => wall - at === offsetAt(at, timeZone));
  return shown.length > 0 ? Math.max(...shown) : wall - before;
}

/**
 * Counts business minutes between instants, for many tickets at once (the reports): the opening windows between
 * `from` and `to` are laid out once as instants, with the minutes open before each, so each count is two binary
 * searches. It reads the same business hours as addHours (working days, opening and closing time in the time zone;
 * a change of clocks shortens or lengthens the day as it happens), and a window whose closing time is earlier than
 * its opening time runs past midnight into the next day. Instants outside from..to count as its nearest edge.
 */
export function businessMinutesCounter(
  window: OpeningWindow,
  timeZone: string,
  from: Date,
  to: Date,
): (start: Date, end: Date) => number {
  const starts: number[] = [];
  const ends: number[] = [];
  const before: number[] = [];
  let open = 0;
  // The windows from the one of the day before `from` to those of the day after `to`.
  const last = localDay(to.getTime(), timeZone) + 2 * DAY;
  for (const [s, e] of openingsOf(window, timeZone, from.getTime())) {
    if (s >= last) break;
    starts.push(s);
    ends.push(e);
    before.push(open);
    open += (e - s) / MINUTE;
  }
  /** Business minutes from the first window's start up to an instant. */
  const upTo = (at: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] ?? 0) <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return 0;
    const s = starts[found] ?? 0;
    return (before[found] ?? 0) + (Math.min(at, ends[found] ?? 0) - s) / MINUTE;
  };
  return (start, end) => (end <= start ? 0 : upTo(end.getTime()) - upTo(start.getTime()));
}

/** A ticket's two due times under its priority's target (null: no target). */
export function dueTimes(created: Date, priority: TicketPriority, config: SlaConfig) {
  const target = config.targets.find((t) => t.priority === priority);
  const due = (hours: number | null | undefined) =>
    hours === null || hours === undefined || !target
      ? null
      : addHours(created, hours, target.business_hours && config.window, config.timezone);
  return { firstResponse: due(target?.first_response_hours), resolution: due(target?.resolution_hours) };
}

function clock(start: Date, due: Date | null, done: Date | null): SlaClock | null {
  if (due === null) return null;
  const state: SlaClock["state"] = done ? (done <= due ? "met" : "met_late") : dueState(start, due, now());
  return { due_at: due.toISOString(), state, done_at: done?.toISOString() ?? null };
}

/**
 * A ticket's due times: the first public reply by a member of the team, and the solve, each against its priority's
 * target, from when the ticket was created.
 */
export async function ticketSla(ctx: TenantCtx, ticketId: string): Promise<TicketSlaAnswer> {
  const ticket = await findTicketRow(ctx.db, ctx.orgId, ticketId);
  if (!ticket) throw notFound("Ticket");
  const due = dueTimes(ticket.createdAt, ticket.priority, await loadConfig(ctx));
  if (!due.firstResponse && !due.resolution) return { first_response: null, resolution: null };
  const replied = await firstTeamReplyAt(ctx.db, ctx.orgId, ticketId);
  const solved = ticket.status === "solved" || ticket.status === "closed" ? ticket.solvedAt : null;
  return {
    first_response: clock(ticket.createdAt, due.firstResponse, replied),
    resolution: clock(ticket.createdAt, due.resolution, solved),
  };
}

/** Raw statements get timestamps as PostgreSQL prints them. */
const asDate = (v: Date | string) => (typeof v === "string" ? new Date(v) : v);
const sameTime = (a: Date | string | null, b: Date | null) =>
  a === null || b === null ? a === b : asDate(a).getTime() === b.getTime();

/** Works out one ticket's due times again and stores them if they changed. */
async function storeDueTimes(db: Queryable, orgId: string, ticketId: string): Promise<void> {
  const ticket = await findDueTimes(db, orgId, ticketId);
  if (!ticket) return;
  const config = await loadConfig({ db, orgId });
  const due = dueTimes(asDate(ticket.created_at), ticket.priority, config);
  if (sameTime(ticket.first_response_due_at, due.firstResponse) && sameTime(ticket.resolution_due_at, due.resolution)) {
    return;
  }
  await writeDueTimes(db, orgId, [{ id: ticketId, ...due }]);
}

/**
 * In the ticket's own transaction: due times on creation and on a change of priority; the first public reply by a
 * member of the team (not a rule's, a customer's or an API key's) ends the wait for a first response. A new time zone
 * marks the open tickets for the sla-recompute work of the automation-timers job, which gives them due times in it.
 */
export function registerSlaHandlers(bus: EventBus): void {
  bus.onInTransaction(["organization.timezone_changed"], (ctx) => markForSlaRecompute(ctx.db, ctx.orgId));
  bus.onInTransaction(["ticket.created"], (ctx, event) => storeDueTimes(ctx.db, ctx.orgId, event.data.ticket_id));
  bus.onInTransaction(["ticket.updated"], async (ctx, event) => {
    // A reopened ticket was left out of recomputes while solved: it is held to the targets as they are now.
    const { priority, status } = event.data.changes;
    const reopened = status && !OPEN.includes(status.from) && OPEN.includes(status.to);
    if (priority || reopened) await storeDueTimes(ctx.db, ctx.orgId, event.data.ticket_id);
  });
  bus.onInTransaction(["comment.added"], async (ctx, event) => {
    if (!event.data.is_public) return;
    await noteFirstResponse(ctx.db, ctx.orgId, event.data.ticket_id, event.data.comment_id);
  });
}

export const RECOMPUTE_QUEUE: JobQueue<{ organization_id: string }> = {
  name: "sla-recompute",
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 30 * 60,
};

/**
 * Marks the organization's open tickets for their SLA due times to be worked out again (by the sla-recompute work of
 * the automation-timers job), in the caller's transaction: for other modules that change what the times depend on
 * (the organization's time zone, tickets written straight in).
 */
export async function markForSlaRecompute(db: Queryable, orgId: string): Promise<void> {
  await db
    .insert(slaRecomputes)
    .values({ organizationId: orgId })
    .onConflictDoUpdate({ target: slaRecomputes.organizationId, set: { requestedAt: sql`now()` } });
}

/** Asks for the organization's open tickets to be worked out again, in this transaction (so only if it commits). */
async function requestRecompute(ctx: TenantCtx, jobs: Jobs): Promise<void> {
  await markForSlaRecompute(ctx.db, ctx.orgId);
  await jobs.send(ctx.db, RECOMPUTE_QUEUE, { organization_id: ctx.orgId });
}

/**
 * Works out the due times of an organization's open and pending tickets again, RECOMPUTE_BATCH tickets per
 * transaction in ticket-number order, each batch with the settings as they are then (so a change made meanwhile is
 * never overwritten by older settings), then the stored business minutes of its answered and solved tickets (the
 * reports'); then the request is removed, unless a newer one came meanwhile.
 */
export async function recomputeDueTimes(db: Db, orgId: string): Promise<number> {
  const [request] = await withSystem(db, orgId, "sla", (ctx) =>
    queryRows<{ requested_at: string }>(
      ctx.db,
      sql`select requested_at::text from sla_recomputes where organization_id = ${orgId}`,
    ),
  );
  let after = 0;
  let changed = 0;
  for (;;) {
    const batch = await withSystem(db, orgId, "sla", async (ctx) => {
      const config = await loadConfig(ctx);
      const rows = await openTicketsAfter(ctx.db, orgId, after, RECOMPUTE_BATCH);
      const updates = rows.flatMap((row) => {
        const due = dueTimes(asDate(row.created_at), row.priority, config);
        if (sameTime(row.first_response_due_at, due.firstResponse) && sameTime(row.resolution_due_at, due.resolution)) {
          return [];
        }
        return [{ id: row.id, ...due }];
      });
      await fillFirstResponses(
        ctx.db,
        orgId,
        rows.filter((r) => r.first_responded_at === null).map((r) => r.id),
      );
      await writeDueTimes(ctx.db, orgId, updates);
      return { count: rows.length, last: rows.at(-1)?.ticket_number ?? after, changed: updates.length };
    });
    changed += batch.changed;
    after = batch.last;
    if (batch.count < RECOMPUTE_BATCH) break;
  }
  // The reports' business minutes of every answered or solved ticket, open or not, under the hours as they are now.
  for (after = 0; ; ) {
    const batch = await withSystem(db, orgId, "sla", (ctx) =>
      refreshBusinessMinutes(ctx.db, orgId, after, MINUTES_BATCH),
    );
    after = batch.last;
    if (batch.count < MINUTES_BATCH) break;
  }
  if (request) {
    await withSystem(db, orgId, "sla", (ctx) =>
      ctx.db.execute(
        sql`delete from sla_recomputes where organization_id = ${orgId}
              and requested_at = ${request.requested_at}::timestamptz`,
      ),
    );
  }
  return changed;
}

/** Every organization with a recompute still asked for (a job that never finished; targets set before due times were stored). */
export async function runSlaRecomputes(db: Db): Promise<void> {
  const orgs = await queryRows<{ organization_id: string }>(db, sql`select organization_id from sla_recomputes`);
  for (const { organization_id } of orgs) await recomputeDueTimes(db, organization_id);
}

export function workSlaRecomputes(jobs: Jobs, db: Db): void {
  jobs.work(RECOMPUTE_QUEUE, async ({ organization_id }) => {
    await recomputeDueTimes(db, organization_id);
  });
}

/** Whether an admin has saved the organization's business hours, rather than leaving the default (the checklist). */
export async function businessHoursSaved(db: Queryable, orgId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: businessHours.organizationId })
    .from(businessHours)
    .where(eq(businessHours.organizationId, orgId));
  return row !== undefined;
}
