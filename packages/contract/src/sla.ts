import { z } from "zod";
import { TICKET_PRIORITIES, type TicketPriority } from "./tickets.ts";

/**
 * SLA targets (PRODUCT.md section 2): per priority, how soon a ticket gets its first public reply from the team and
 * how soon it is solved, counted in calendar hours or in business hours (Monday to Friday, 09:00 to 17:00 in the
 * organization's time zone). A priority without a target has no due time.
 */
export const BUSINESS_DAYS = [1, 2, 3, 4, 5] as const;
export const BUSINESS_OPENS_HOUR = 9;
export const BUSINESS_CLOSES_HOUR = 17;
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

export const slaTargetsBody = z.strictObject({
  targets: z
    .array(slaTargetSchema, { error: "targets must be a list" })
    .max(TICKET_PRIORITIES.length, "Send at most one target per priority")
    .refine(
      (list) => new Set(list.map((t) => t.priority)).size === list.length,
      "Send at most one target per priority",
    ),
});
export type SlaTargetsBody = z.input<typeof slaTargetsBody>;
/** Every priority, in order, with its target (null hours: none). */
export const slaTargetsAnswer = z.object({ targets: z.array(slaTargetSchema) });
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

export const emptyTargets = (): SlaTarget[] =>
  TICKET_PRIORITIES.map((priority: TicketPriority) => ({
    priority,
    first_response_hours: null,
    resolution_hours: null,
    business_hours: false,
  }));
