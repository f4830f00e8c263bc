import {
  BUSINESS_CLOSES_HOUR,
  BUSINESS_DAYS,
  BUSINESS_OPENS_HOUR,
  emptyTargets,
  SLA_WARNING_SHARE,
  type SlaClock,
  type SlaTarget,
  type slaTargetsBody,
  type TicketSlaAnswer,
} from "@cove/contract/sla.ts";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { z } from "zod";
import { slaTargets } from "../../db/schema/automation.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { ticketComments } from "../../db/schema/tickets.ts";
import { now } from "../../platform/clock.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { findTicketRow } from "../tickets/tickets.queries.ts";

const MINUTE = 60_000;
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The organization's targets for every priority (none set: null hours). */
export async function getTargets(ctx: TenantCtx): Promise<SlaTarget[]> {
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

/** Replaces the targets of the priorities sent; the others keep theirs. */
export async function putTargets(ctx: Ctx, input: z.output<typeof slaTargetsBody>): Promise<SlaTarget[]> {
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
  return getTargets(ctx);
}

/** The weekday, hour, minute and second of an instant in a time zone. */
function localParts(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return {
    weekday: WEEKDAYS[part("weekday")] ?? 0,
    hour: Number(part("hour")),
    minute: Number(part("minute")),
    second: Number(part("second")),
  };
}

/**
 * start plus hours, counted in business hours (Monday to Friday, 09:00-17:00 in timeZone) or calendar hours. Closed
 * time is skipped an hour at a time, so a change of clocks (DST) is read as it happens.
 */
export function addHours(start: Date, hours: number, businessHours: boolean, timeZone: string): Date {
  if (!businessHours) return new Date(start.getTime() + hours * 3_600_000);
  let at = start.getTime();
  let left = hours * 60;
  for (let guard = 0; left > 0 && guard < 100_000; guard++) {
    const { weekday, hour, minute, second } = localParts(at, timeZone);
    const open =
      (BUSINESS_DAYS as readonly number[]).includes(weekday) &&
      hour >= BUSINESS_OPENS_HOUR &&
      hour < BUSINESS_CLOSES_HOUR;
    if (open) {
      const untilClose = (BUSINESS_CLOSES_HOUR - hour) * 60 - minute - second / 60;
      const step = Math.min(left, untilClose);
      at += step * MINUTE;
      left -= step;
    } else {
      at += ((60 - minute) * 60 - second) * 1000;
    }
  }
  return new Date(at);
}

function clock(start: Date, target: number | null, business: boolean, tz: string, done: Date | null): SlaClock | null {
  if (target === null) return null;
  const due = addHours(start, target, business, tz);
  const at = now();
  let state: SlaClock["state"];
  if (done) state = done <= due ? "met" : "met_late";
  else if (at > due) state = "breached";
  else if (due.getTime() - at.getTime() < SLA_WARNING_SHARE * (due.getTime() - start.getTime())) state = "close";
  else state = "on_track";
  return { due_at: due.toISOString(), state, done_at: done?.toISOString() ?? null };
}

/**
 * A ticket's due times: the first public reply by a member of the team, and the solve, each against its priority's
 * target, from when the ticket was created.
 */
export async function ticketSla(ctx: TenantCtx, ticketId: string): Promise<TicketSlaAnswer> {
  const ticket = await findTicketRow(ctx.db, ctx.orgId, ticketId);
  if (!ticket) throw notFound("Ticket");
  const target = (await getTargets(ctx)).find((t) => t.priority === ticket.priority);
  if (!target || (target.first_response_hours === null && target.resolution_hours === null)) {
    return { first_response: null, resolution: null };
  }
  const [org] = await ctx.db
    .select({ tz: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  const tz = org?.tz ?? "UTC";
  const [reply] = await ctx.db
    .select({ at: ticketComments.createdAt })
    .from(ticketComments)
    .where(
      and(
        eq(ticketComments.organizationId, ctx.orgId),
        eq(ticketComments.ticketId, ticketId),
        eq(ticketComments.isPublic, true),
        isNotNull(ticketComments.authorId),
      ),
    )
    .orderBy(asc(ticketComments.createdAt))
    .limit(1);
  const solved = ticket.status === "solved" || ticket.status === "closed" ? ticket.solvedAt : null;
  return {
    first_response: clock(ticket.createdAt, target.first_response_hours, target.business_hours, tz, reply?.at ?? null),
    resolution: clock(ticket.createdAt, target.resolution_hours, target.business_hours, tz, solved),
  };
}
