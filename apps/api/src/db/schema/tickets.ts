import { ACTIVITY_TYPES, TICKET_PRIORITIES, TICKET_SOURCES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, refCascade, refSetNull, timestamps, timestamptz, tsvector } from "./columns.ts";
import { contacts } from "./contacts.ts";
import { organizationId, tenantRow } from "./organizations.ts";
import { users } from "./users.ts";

export const tickets = pgTable(
  "tickets",
  {
    ...tenantRow(),
    ticketNumber: integer("ticket_number").notNull(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    priority: text("priority", { enum: TICKET_PRIORITIES }).notNull().default("normal"),
    source: text("source", { enum: TICKET_SOURCES }).notNull().default("web"),
    requesterName: text("requester_name").notNull(),
    requesterEmail: text("requester_email").notNull(),
    assigneeId: refSetNull("assignee_id", () => users.id),
    /** The requester as a contact record, when known: what a contact's own session reads its tickets by. */
    contactId: refSetNull("contact_id", () => contacts.id),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    /** The words of every comment, appended as comments arrive, so one index answers search over both. */
    commentsTsv: tsvector("comments_tsv").notNull().default(sql`''::tsvector`),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, coalesce(subject, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce(requester_name, '') || ' ' || coalesce(requester_email, '') || ' ' || replace(coalesce(requester_email, ''), '@', ' ')), 'C') || comments_tsv`,
    ),
    ...timestamps(),
    solvedAt: timestamptz("solved_at"),
    /**
     * SLA (modules/automation/sla.ts keeps them): the due times under the priority's targets (null: no target), and
     * the team's first public reply. sla_due_at is the one the ticket waits on next, for the list's column and sort.
     */
    firstResponseDueAt: timestamptz("first_response_due_at"),
    resolutionDueAt: timestamptz("resolution_due_at"),
    firstRespondedAt: timestamptz("first_responded_at"),
    /**
     * Reports (docs/reports.md): business minutes from creation to the first response and to the (last) solve, in the
     * organization's business hours and time zone. Kept by a trigger whenever those instants change (migration
     * *_ticket_business_minutes.sql) and worked out again by the sla-recompute job when the hours or the zone change.
     */
    firstResponseBusinessMinutes: doublePrecision("first_response_business_minutes"),
    resolutionBusinessMinutes: doublePrecision("resolution_business_minutes"),
    slaDueAt: timestamptz("sla_due_at").generatedAlwaysAs(
      sql`case when status in ('open', 'pending') then case when first_responded_at is null and first_response_due_at is not null then first_response_due_at else resolution_due_at end end`,
    ),
  },
  (t) => [
    uniqueIndex("tickets_org_number_unique").on(t.organizationId, t.ticketNumber),
    // The list's order (updated_at desc, ticket_number desc) in full, so a page is read straight off an index
    // (ticket_number included: the page's numbers come from the index alone, then only its 25 rows are read).
    // NULLS FIRST is what a plain DESC sorts by; an index sorted otherwise cannot serve that ORDER BY.
    index("tickets_org_updated_idx").on(
      t.organizationId,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_status_updated_idx").on(
      t.organizationId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_priority_updated_idx").on(
      t.organizationId,
      t.priority,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    index("tickets_org_assignee_updated_idx").on(
      t.organizationId,
      t.assigneeId,
      t.updatedAt.desc().nullsFirst(),
      t.ticketNumber.desc().nullsFirst(),
    ),
    // The unassigned list: PostgreSQL takes no order from an "is null" condition, so off the index above it read and
    // sorted every unassigned ticket for each page; this one holds them in the list's order (docs/benchmarks.md).
    index("tickets_org_unassigned_updated_idx")
      .on(t.organizationId, t.updatedAt.desc().nullsFirst(), t.ticketNumber.desc().nullsFirst())
      .where(sql`${t.assigneeId} is null`),
    // The list sorted by SLA due time (sort=sla_due) has tickets_org_sla_due_idx, written in migration
    // *_sla_row_level_security.sql: its INCLUDE (status, priority, assignee_id), which Drizzle cannot declare, lets a
    // filtered list be read off the index alone (docs/decisions/2026-11-25-sla-in-the-list.md).
    index("tickets_org_created_idx").on(t.organizationId, t.createdAt),
    // The reports read the tickets created in a range off tickets_org_created_minutes_idx (migration
    // *_ticket_business_minutes_trigger.sql): (organization_id, created_at) INCLUDE every column a report counts. A
    // filtered report's replies and surveys find the tickets that pass the filter off tickets_org_report_filter_idx
    // (migration *_report_filter_index.sql): (organization_id) INCLUDE (id, source, priority, assignee_id, tags).
    index("tickets_org_contact_updated_idx")
      .on(t.organizationId, t.contactId, t.updatedAt.desc())
      .where(sql`${t.contactId} is not null`),
    index("tickets_org_status_solved_idx").on(t.organizationId, t.status, t.solvedAt),
    // Reports: the open backlog now, by creation time (modules/tickets/tickets.reports.ts).
    index("tickets_org_open_created_idx")
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.status} in ('open', 'pending')`),
    // Reports: the tickets first answered in a range.
    index("tickets_org_first_responded_idx")
      .on(t.organizationId, t.firstRespondedAt)
      .where(sql`${t.firstRespondedAt} is not null`),
    // The organization's own words: ticket_org_words (migration 0006) prefixes each lexeme with the organization, so
    // a search reads only its organization's entries of the index instead of every tenant's.
    index("tickets_org_words_idx").using("gin", sql`ticket_org_words(${t.organizationId}, ${t.searchVector})`),
  ],
);

const tallyColumns = () => ({
  organizationId: organizationId(),
  status: text("status", { enum: TICKET_STATUSES }).notNull(),
  priority: text("priority", { enum: TICKET_PRIORITIES }).notNull(),
  n: integer("n").notNull().default(0),
  /** Tickets with a solved_at, and the sum of their solved_at - created_at in seconds. */
  resolvedN: integer("resolved_n").notNull().default(0),
  resolvedSeconds: doublePrecision("resolved_seconds").notNull().default(0),
});

/**
 * How many tickets an organization has per (status, priority), kept by triggers on tickets (migration 0007), with
 * the sums behind the average resolution time: a list's total or a dashboard count adds up at most 16 rows instead
 * of counting up to millions of tickets.
 */
export const ticketTotals = pgTable("ticket_totals", tallyColumns(), (t) => [
  unique("ticket_totals_key").on(t.organizationId, t.status, t.priority),
]);

/** The same per assignee too (null: unassigned), for totals of a list filtered by assignee. */
export const ticketTallies = pgTable(
  "ticket_tallies",
  { ...tallyColumns(), assigneeId: uuid("assignee_id") },
  // Assignee before status and priority: one assignee's counts are adjacent in the index.
  (t) => [unique("ticket_tallies_key").on(t.organizationId, t.assigneeId, t.status, t.priority).nullsNotDistinct()],
);

export const ticketComments = pgTable(
  "ticket_comments",
  {
    ...tenantRow(),
    ticketId: refCascade("ticket_id", () => tickets.id).notNull(),
    authorId: refSetNull("author_id", () => users.id),
    /** Set when the customer wrote it (a reply from the portal): the contact, as the author. */
    authorContactId: refSetNull("author_contact_id", () => contacts.id),
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    isPublic: boolean("is_public").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index("ticket_comments_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt),
    // Reports: the team's public replies written in a range.
    index("ticket_comments_org_team_replies_idx")
      .on(t.organizationId, t.createdAt)
      .where(sql`${t.isPublic} and ${t.authorId} is not null`),
  ],
);

export const ticketEvents = pgTable(
  "ticket_events",
  {
    id: id(),
    /** Orders the events of one change, which share a timestamp. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    organizationId: organizationId(),
    ticketId: refCascade("ticket_id", () => tickets.id).notNull(),
    actorId: refSetNull("actor_id", () => users.id),
    actorName: text("actor_name").notNull(),
    type: text("type", { enum: ACTIVITY_TYPES }).notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ticket_events_org_ticket_idx").on(t.organizationId, t.ticketId, t.createdAt),
    // Reports: the status changes since a moment (the backlog at each period's end).
    index("ticket_events_org_status_created_idx").on(t.organizationId, t.createdAt).where(sql`${t.type} = 'status'`),
  ],
);
