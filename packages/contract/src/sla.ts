import { z } from "zod";
import { TICKET_PRIORITIES, type TicketPriority } from "./tickets.ts";

/**
 * SLA targets (docs/product.md, "Beyond the brief"): per priority, how soon a ticket gets its first public reply from the team and
 * how soon it is solved, counted in calendar hours or in the organization's business hours (its working days and
 * opening hours, in its time zone; Monday to Friday, 09:00 to 17:00 until an admin sets them). A priority without a
 * target has no due time.
 */
/** Days of the week as JavaScript counts them: 0 is Sunday. */
export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const DEFAULT_BUSINESS_HOURS = { days: [1, 2, 3, 4, 5], opens: "09:00", closes: "17:00" };
/** A due time is close when less than this share of its target is left. */
export const SLA_WARNING_SHARE = 0.2;
export const SLA_HOURS_MAX = 24 * 90;

const hours = (label: string) =>
  z
    .number({ error: `${label} must be a number of hours` })
    .positive(`${label} must be more than 0 hours`)
    .max(SLA_HOURS_MAX, `${label} must be at most ${SLA_HOURS_MAX} hours`)
    .nullable();

export const slaTargetSchema = z.strictObject({
  priority: z.enum(TICKET_PRIORITIES, { error: `Priority must be one of ${TICKET_PRIORITIES.join(", ")}` }),
  first_response_hours: hours("First response"),
  resolution_hours: hours("Resolution"),
  business_hours: z.boolean({ error: "business_hours must be true or false" }),
});
export type SlaTarget = z.infer<typeof slaTargetSchema>;

const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const clockTime = (label: string) =>
  z
    .string({ error: `${label} must be a time such as 09:00` })
    .regex(CLOCK_TIME, `${label} must be a time such as 09:00 (24-hour clock)`);

const WEEKDAY_NUMBER = "Each day must be a weekday number from 0 (Sunday) to 6 (Saturday)";

/** Minutes since midnight of an "HH:MM" time. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * An organization's working days and hours, in its time zone. A closing time before the opening time runs past
 * midnight: 22:00-06:00 on Friday is Friday 22:00 to Saturday 06:00 (docs/reports.md, "Business hours").
 */
export const businessHoursSchema = z
  .strictObject({
    days: z
      .array(z.number({ error: WEEKDAY_NUMBER }).int(WEEKDAY_NUMBER).min(0, WEEKDAY_NUMBER).max(6, WEEKDAY_NUMBER), {
        error: "Days must be a list of weekdays",
      })
      .min(1, "Choose at least one working day")
      .max(7, "A week has 7 days")
      .refine((d) => new Set(d).size === d.length, "Each working day only once")
      .transform((d) => [...d].sort((a, b) => a - b)),
    opens: clockTime("Opening time"),
    closes: clockTime("Closing time"),
  })
  .refine((h) => minutesOf(h.closes) !== minutesOf(h.opens), {
    message: "Closing time must differ from opening time (a closing time before it runs past midnight)",
    path: ["closes"],
  });
export type BusinessHours = z.output<typeof businessHoursSchema>;

export const slaTargetsBody = z.strictObject({
  targets: z
    .array(slaTargetSchema, { error: "targets must be a list" })
    .max(TICKET_PRIORITIES.length, "Send at most one target per priority")
    .refine(
      (list) => new Set(list.map((t) => t.priority)).size === list.length,
      "Send at most one target per priority",
    ),
  /** The organization's business hours; left out: unchanged. */
  business_hours: businessHoursSchema.optional(),
});
export type SlaTargetsBody = z.input<typeof slaTargetsBody>;
/**
 * Every priority, in order, with its target (null hours: none), and the business hours that targets in business hours
 * count in, with the organization's time zone (set in Settings).
 */
export const slaTargetsAnswer = z.object({
  targets: z.array(slaTargetSchema),
  business_hours: z.object({ days: z.array(z.number().int()), opens: z.string(), closes: z.string() }),
  timezone: z.string(),
});
export type SlaTargetsAnswer = z.infer<typeof slaTargetsAnswer>;

export const SLA_STATES = ["on_track", "close", "breached", "met", "met_late"] as const;
export type SlaState = (typeof SLA_STATES)[number];

const clockSchema = z.object({ due_at: z.string(), state: z.enum(SLA_STATES), done_at: z.string().nullable() });
export type SlaClock = z.infer<typeof clockSchema>;
/** A ticket's due times under its priority's targets (null: no target). */
export const ticketSlaAnswer = z.object({
  first_response: clockSchema.nullable(),
  resolution: clockSchema.nullable(),
});
export type TicketSlaAnswer = z.infer<typeof ticketSlaAnswer>;

/**
 * How a due time not yet met stands at a moment: breached once past, close when less than SLA_WARNING_SHARE of the
 * time from the start (the ticket's creation) to the due time is left. The list works it out in the browser from the
 * due time it was sent, so a list answered a while ago still turns red on time.
 */
export function dueState(start: Date | string, due: Date | string, at: Date): "on_track" | "close" | "breached" {
  const from = new Date(start).getTime();
  const until = new Date(due).getTime();
  if (at.getTime() > until) return "breached";
  return until - at.getTime() < SLA_WARNING_SHARE * (until - from) ? "close" : "on_track";
}

export const emptyTargets = (): SlaTarget[] =>
  TICKET_PRIORITIES.map((priority: TicketPriority) => ({
    priority,
    first_response_hours: null,
    resolution_hours: null,
    business_hours: false,
  }));
