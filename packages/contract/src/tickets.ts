import { z } from "zod";
import { attachmentIds, attachmentSchema } from "./attachments.ts";
import { requiredText } from "./auth.ts";
import { CSAT_RATINGS } from "./csat.ts";
import { COMMENT_EMAIL_STATUSES, INTERNATIONAL_EMAIL } from "./email.ts";
import { isUuid } from "./ids.ts";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import { textRequired } from "./messages.ts";
import { cursorParam, type Pagination, pageParam, paginationSchema } from "./pagination.ts";
import { defineRoute, idParams } from "./routes.ts";

export const TICKET_STATUSES = ["open", "pending", "solved", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_SOURCES = ["web", "email", "chat", "portal", "api"] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

export const TICKET_PAGE_SIZE = 25;
export const TICKET_PAGE_MAX = 100;
/** A search ranks this many of the most recent matching tickets (docs/decisions: ticket search). */
export const SEARCH_CANDIDATES = 200;
export const TAG_MAX = 40;
export const TAGS_PER_TICKET_MAX = 20;

const noNul = (s: string) => !s.includes("\u0000");

/** Long free text (descriptions, comments): kept exactly as typed apart from surrounding whitespace. */
const longText = (label: string, max: number) =>
  z
    .string({ error: textRequired(label) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`)
    .refine(noNul, `${label} contains an invalid character`);

const tag = z
  .string()
  .trim()
  .min(1, "A tag cannot be empty")
  .max(TAG_MAX, `A tag must be at most ${TAG_MAX} characters`)
  .refine(noNul, "A tag contains an invalid character");

const tagList = z
  .array(tag, { error: "Tags must be a list of words" })
  .max(TAGS_PER_TICKET_MAX, `A ticket can have at most ${TAGS_PER_TICKET_MAX} tags`)
  .transform((tags) => [...new Set(tags.map((t) => t.toLowerCase()))]);

export const commentSchema = z.object({
  id: z.uuid(),
  body: z.string(),
  is_public: z.boolean(),
  author_name: z.string(),
  author_email: z.string(),
  created_at: z.string(),
  /** A public reply emailed to the requester: how its delivery stands (null: not emailed). */
  email_status: z.enum(COMMENT_EMAIL_STATUSES).nullable().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const ACTIVITY_TYPES = ["created", "status", "priority", "assignee", "tags"] as const;
export const activitySchema = z.object({
  id: z.uuid(),
  type: z.enum(ACTIVITY_TYPES),
  actor_name: z.string(),
  from_value: z.string().nullable(),
  to_value: z.string().nullable(),
  created_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

/** Which SLA due time a ticket waits on next: its first response until the team answered, then its resolution. */
export const SLA_KINDS = ["first_response", "resolution"] as const;
export type SlaKind = (typeof SLA_KINDS)[number];
/** A ticket's next SLA due time (null: solved, closed, or no target for its priority); sla.ts: dueState. */
export const ticketDueSchema = z.object({ kind: z.enum(SLA_KINDS), due_at: z.string() });
export type TicketDue = z.infer<typeof ticketDueSchema>;

/** A ticket as lists show it (docs/product.md, "Records"), plus assignee_id and solved_at. */
export const ticketSummarySchema = z.object({
  id: z.uuid(),
  ticket_number: z.number().int(),
  subject: z.string(),
  description: z.string(),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(TICKET_PRIORITIES),
  source: z.enum(TICKET_SOURCES),
  requester_name: z.string(),
  requester_email: z.string(),
  requester_first_name: z.string(),
  requester_last_name: z.string(),
  assignee_id: z.uuid().nullable(),
  assignee_first_name: z.string().nullable(),
  assignee_last_name: z.string().nullable(),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  solved_at: z.string().nullable(),
  /** Cove: the next SLA due time (docs/decisions/2026-11-25-sla-in-the-list.md). */
  sla_due: ticketDueSchema.nullable(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** The customer's answer to the ticket's satisfaction survey (Cove: CSAT), as staff see it on the ticket. */
export const ticketRatingSchema = z.object({
  rating: z.enum(CSAT_RATINGS),
  comment: z.string().nullable(),
  rated_at: z.string(),
});
export type TicketRating = z.infer<typeof ticketRatingSchema>;

export const ticketSchema = ticketSummarySchema.extend({
  comments: z.array(commentSchema),
  /** Files that came with the ticket's messages (the email channel); absent where not read. */
  attachments: z.array(attachmentSchema).optional(),
  activity: z.array(activitySchema),
  /** The customer's rating once given; null until then (absent where not read: the customer's own view). */
  rating: ticketRatingSchema.nullable().optional(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export { type Pagination, paginationSchema };

export const TICKET_SORTS = ["updated", "sla_due"] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

export const ticketListQuery = z.object({
  page: pageParam,
  cursor: cursorParam,
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(TICKET_PAGE_MAX, `limit must be at most ${TICKET_PAGE_MAX}`)
    .default(TICKET_PAGE_SIZE),
  status: z.enum(TICKET_STATUSES, { error: `status must be one of ${TICKET_STATUSES.join(", ")}` }).optional(),
  priority: z.enum(TICKET_PRIORITIES, { error: `priority must be one of ${TICKET_PRIORITIES.join(", ")}` }).optional(),
  /** unassigned, me, or a user id. */
  assignee_id: z
    .string()
    .refine((v) => v === "unassigned" || v === "me" || isUuid(v), "assignee_id must be unassigned, me, or a user id")
    .optional(),
  search: z.string().trim().max(200, "Search must be at most 200 characters").optional(),
  /**
   * Cove: the order. Left out: most recently updated first (spec). sla_due: the soonest SLA due time first, tickets
   * with none (solved, closed, no target) last, each part most recently updated first.
   */
  sort: z
    .enum(TICKET_SORTS, { error: `sort must be one of ${TICKET_SORTS.join(", ")}` })
    .optional()
    .describe(
      "Cove: updated (default) lists the most recently updated first; sla_due the soonest SLA due time first (sla_due on each ticket), tickets with none last",
    ),
});
export type TicketListQuery = z.input<typeof ticketListQuery>;

/**
 * How much of each ticket's description a list answers: its first LIST_DESCRIPTION_CHARS characters, a preview. The
 * list is read far more often than any one ticket, and whole descriptions made up most of its bytes (about 20 KB a
 * page); the full text is in the ticket's own answer (GET /api/tickets/:id). The field keeps its name.
 */
export const LIST_DESCRIPTION_CHARS = 200;
/** A page of tickets: each description cut to LIST_DESCRIPTION_CHARS characters (the detail has the whole text). */
export const ticketListAnswer = z.object({ tickets: z.array(ticketSummarySchema), pagination: paginationSchema });
export type TicketListAnswer = z.infer<typeof ticketListAnswer>;

export const ticketAnswer = z.object({ ticket: ticketSchema });
export type TicketAnswer = z.infer<typeof ticketAnswer>;

export const createTicketBody = z.object({
  subject: requiredText("Subject", 250),
  description: longText("Description", 50_000),
  priority: z
    .enum(TICKET_PRIORITIES, { error: `Priority must be one of ${TICKET_PRIORITIES.join(", ")}` })
    .default("normal"),
  requester_name: requiredText("Requester name", 120),
  requester_email: z
    .string({ error: textRequired("Requester email") })
    .trim()
    .min(1, "Requester email is required")
    .max(254, "Requester email must be at most 254 characters")
    // Internationalized addresses (RFC 6532) too: a customer writing from one gets their ticket and its answers.
    .pipe(z.email({ pattern: INTERNATIONAL_EMAIL, error: "Enter a valid requester email address" }))
    .transform((e) => e.toLowerCase()),
  tags: tagList.optional().default([]),
  /** Files uploaded for its first message (POST /api/attachments). */
  attachment_ids: attachmentIds.optional(),
});
export type CreateTicketBody = z.input<typeof createTicketBody>;

export const updateTicketBody = z
  .object({
    status: z.enum(TICKET_STATUSES, { error: `Status must be one of ${TICKET_STATUSES.join(", ")}` }).optional(),
    priority: z
      .enum(TICKET_PRIORITIES, { error: `Priority must be one of ${TICKET_PRIORITIES.join(", ")}` })
      .optional(),
    /** A user id, or null to unassign. */
    assignee_id: z.uuid({ error: "assignee_id must be a user id or null" }).nullable().optional(),
    tags: tagList.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one field to change");
export type UpdateTicketBody = z.input<typeof updateTicketBody>;

export const createCommentBody = z.object({
  body: longText("Reply", 50_000),
  is_public: z.boolean({ error: "is_public must be true or false" }).default(true),
  /** Files uploaded for this reply (POST /api/tickets/{id}/attachments). */
  attachment_ids: attachmentIds.optional(),
});
export type CreateCommentBody = z.input<typeof createCommentBody>;

export const commentAnswer = z.object({ comment: commentSchema });

export const ticketStats = z.object({
  total_tickets: z.number().int(),
  open_tickets: z.number().int(),
  tickets_today: z.number().int(),
  urgent_tickets: z.number().int(),
  unassigned_tickets: z.number().int(),
  high_priority_tickets: z.number().int(),
  tickets_this_week: z.number().int(),
  avg_resolution_hours: z.number().nullable(),
});
export type TicketStats = z.infer<typeof ticketStats>;

export const organizationStats = z.object({
  basicStats: z.object({ active_users: z.number().int(), total_users: z.number().int() }),
  ticketTrends: z.array(z.object({ date: z.string(), tickets_created: z.number().int() })),
});
export type OrganizationStats = z.infer<typeof organizationStats>;

/** The organization's figures for the dashboard (staff; the answer is cached for the day). */
export const organizationsApi = {
  stats: defineRoute({
    method: "GET",
    path: "/api/organizations/stats",
    summary: "Active team members and the 30-day ticket trend",
    tags: ["organizations"],
    access: "authenticated",
    answers: { 200: organizationStats },
  }),
};

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["tickets"];
// The public REST API: the organization's API keys read and change tickets like a member (docs/product.md, "Beyond the brief").
const actors = ["api_key"] as const;

/** The tickets: the list, one ticket, the dashboard's figures, creating, changing and replying (staff and API keys). */
export const ticketsApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/tickets",
    summary: "List tickets: filters, search, pages",
    tags,
    access: "authenticated",
    actors,
    query: ticketListQuery,
    answers: { 200: ticketListAnswer },
  }),
  stats: defineRoute({
    method: "GET",
    path: "/api/tickets/stats/overview",
    summary: "Dashboard figures",
    tags,
    access: "authenticated",
    answers: { 200: ticketStats },
  }),
  get: defineRoute({
    method: "GET",
    path: "/api/tickets/:id",
    summary: "A ticket with its comments and activity",
    tags,
    access: "authenticated",
    actors,
    params: idParams,
    answers: { 200: ticketAnswer },
  }),
  create: defineRoute({
    method: "POST",
    path: "/api/tickets",
    summary: "Create a ticket",
    tags,
    access: "authenticated",
    actors,
    body: createTicketBody,
    answers: { 201: ticketAnswer },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/api/tickets/:id",
    summary: "Change status, priority, assignee or tags",
    tags,
    access: "authenticated",
    actors,
    params: idParams,
    body: updateTicketBody,
    answers: { 200: ticketAnswer },
  }),
  comment: defineRoute({
    method: "POST",
    path: "/api/tickets/:id/comments",
    summary: "Reply publicly or add an internal note",
    tags,
    access: "authenticated",
    actors,
    params: idParams,
    body: createCommentBody,
    answers: { 201: commentAnswer },
  }),
};
