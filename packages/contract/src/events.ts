import { z } from "zod";
import { CHAT_SENDER_TYPES, CHAT_SESSION_STATUSES } from "./chat.ts";
import { ROLES } from "./constants.ts";
import { CSAT_RATINGS } from "./csat.ts";
import { COMMENT_EMAIL_STATUSES } from "./email.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES, TICKET_STATUSES } from "./tickets.ts";

/**
 * Domain events (docs/engineering.md, "Events"): what happened in an organization, declared once here so that every
 * consumer (in-transaction handlers such as automation, durable handlers on the job queue such as mail and webhooks,
 * the realtime fan-out to browsers) reads the same shape. Events carry ids and small patches, never whole rows: a
 * consumer that needs more reads it with its own rights, so no channel can leak a field its reader may not see.
 */

/** Who acts: a staff member, an organization's customer, an API key, or Cove itself (automation, jobs). */
export const ACTOR_KINDS = ["staff", "contact", "api_key", "system"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export const actorRefSchema = z.object({ kind: z.enum(ACTOR_KINDS), id: z.string() });
export type ActorRef = z.infer<typeof actorRefSchema>;

/**
 * The AI assistant, whatever it does: its answers and hand-offs in a chat, the questions it adds to articles, the
 * vectors it keeps. One actor, so a ticket's activity, the notifications and the audit log name it the same way.
 */
export const ASSISTANT_ACTOR = { kind: "system", id: "assistant" } as const satisfies ActorRef;

const id = z.uuid();
const change = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });

/** The fields of a ticket whose change ticket.updated reports, with their old and new values. */
export const ticketChangesSchema = z
  .object({
    status: change(z.enum(TICKET_STATUSES)),
    priority: change(z.enum(TICKET_PRIORITIES)),
    assignee_id: change(id.nullable()),
    tags: change(z.array(z.string())),
    subject: change(z.string()),
  })
  .partial();
export type TicketChanges = z.infer<typeof ticketChangesSchema>;

/** Every event type and the data it carries. Chat, automation, billing and email add theirs here. */
export const EVENT_DATA = {
  "ticket.created": z.object({
    ticket_id: id,
    ticket_number: z.number().int(),
    source: z.enum(TICKET_SOURCES),
    assignee_id: id.nullable(),
  }),
  /** Any change of a ticket's fields, listing each field that changed. */
  "ticket.updated": z.object({ ticket_id: id, changes: ticketChangesSchema }),
  /** Emitted beside ticket.updated when the assignee changed. */
  "ticket.assigned": z.object({ ticket_id: id, from: id.nullable(), to: id.nullable() }),
  /** Emitted beside ticket.updated when the status changed. */
  "ticket.status_changed": z.object({
    ticket_id: id,
    from: z.enum(TICKET_STATUSES),
    to: z.enum(TICKET_STATUSES),
  }),
  "comment.added": z.object({ ticket_id: id, comment_id: id, is_public: z.boolean() }),
  "member.invited": z.object({ user_id: id }),
  "member.joined": z.object({ user_id: id }),
  "member.changed": z.object({
    user_id: id,
    changes: z
      .object({
        role: change(z.enum(ROLES)),
        status: change(z.enum(["active", "inactive", "invited"])),
        name: change(z.string()),
      })
      .partial(),
  }),
  "member.removed": z.object({ user_id: id }),
  "kb.article_changed": z.object({
    article_id: id,
    change: z.enum(["created", "updated", "deleted"]),
    published: z.boolean(),
  }),
  "kb.category_changed": z.object({ category_id: id, change: z.enum(["created", "updated", "deleted"]) }),
  /** A notification for one staff member (its own topic only). */
  "notification.created": z.object({ notification_id: id, user_id: id }),
  /** Some of a member's notifications were marked read (their other tabs update the count). */
  "notification.read": z.object({ user_id: id }),
  /** A customer answered (or changed their answer to) a solved ticket's satisfaction survey. */
  "csat.rated": z.object({ ticket_id: id, rating: z.enum(CSAT_RATINGS) }),
  /** An email reached a ticket: it opened it (new_ticket) or became the comment comment_id on it. */
  "email.received": z.object({
    email_id: id,
    ticket_id: id,
    comment_id: id.nullable(),
    new_ticket: z.boolean(),
    /** A mailbox's past mail filed by an import: nobody is waiting for an acknowledgement. */
    history: z.boolean().optional(),
    /** Filed past the loop guard (INBOUND_PER_SENDER_PER_MINUTE): nothing automatic answers it. */
    loop_guard: z.boolean().optional(),
  }),
  /** An outbound email of a ticket was sent, or failed (after its retries, or bounced). */
  "email.delivery_changed": z.object({
    email_id: id,
    ticket_id: id,
    comment_id: id.nullable(),
    status: z.enum(COMMENT_EMAIL_STATUSES),
  }),
  /** A visitor started a live chat. */
  "chat.session_started": z.object({ session_id: id }),
  /** A message in a live chat, from the visitor, an agent, the assistant or Cove. */
  "chat.message_added": z.object({ session_id: id, message_id: id, sender_type: z.enum(CHAT_SENDER_TYPES) }),
  /** A session's status, assignee or waiting state changed (who has it is read through the API). */
  "chat.session_changed": z.object({
    session_id: id,
    status: z.enum(CHAT_SESSION_STATUSES),
    waiting_for_human: z.boolean(),
  }),
  /**
   * A visitor rated one of the assistant's answers in their chat ("Was this helpful?"; a later rating replaces it):
   * message_id is the chat message, answer_id the logged answer it shows.
   */
  "chat.answer_rated": z.object({ session_id: id, message_id: id, answer_id: id, helpful: z.boolean() }),
  /** The assistant handed a session to the team: it waits for a person (the agents are notified). */
  "chat.handed_off": z.object({
    session_id: id,
    reason: z.enum(["person_requested", "low_confidence", "ai_unavailable"]),
  }),
  /** A new customer of the organization (a first ticket, mail, portal sign-in or chat from them). */
  "contact.created": z.object({ contact_id: id }),
  /** A ticket's SLA target passed (found by the automation-timers job; once per ticket, due time and kind). */
  "ticket.sla_breached": z.object({ ticket_id: id, kind: z.enum(["first_response", "resolution"]) }),
  /** An admin changed the organization's time zone (business hours, SLA due times and reports are read in it). */
  "organization.timezone_changed": z.object({ from: z.string(), to: z.string() }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/**
 * An event as it was committed: its monotonic id, organization, actor and time, and its data. Distributes over the
 * types, so checking `event.type` narrows `event.data`.
 */
export type DomainEvent<T extends EventType = EventType> = T extends EventType
  ? {
      id: number;
      type: T;
      organization_id: string;
      actor: ActorRef;
      occurred_at: string;
      data: EventData<T>;
    }
  : never;

/** Reads an event's data against its declared schema (e.g. after a NOTIFY or from the outbox). */
export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  return EVENT_DATA[type].parse(data) as EventData<T>;
}

export const isEventType = (type: string): type is EventType => Object.hasOwn(EVENT_DATA, type);
