import type { CommentEmailStatus } from "@cove/contract/email.ts";
import type { Comment, SlaKind, Ticket, TicketSummary } from "@cove/contract/tickets.ts";
import { and, asc, eq, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import { filled, type Queryable, queryRows } from "../../platform/db.ts";
import { isoInstant } from "../../platform/instants.ts";
import { type OneRead, readIn } from "../../platform/tenancy.ts";
import { contactHasEmail } from "../contacts/index.ts";
import { ticketParts } from "./tickets.parts.ts";

export const assignee = alias(users, "assignee");

/** Which due time sla_due_at is (SLA, modules/automation/sla.ts): the first response until answered, then the resolution. */
export const SLA_KIND = sql.raw(`case when "tickets"."sla_due_at" is null then null
  when "tickets"."first_responded_at" is null and "tickets"."first_response_due_at" is not null then 'first_response'
  else 'resolution' end`);

/** The columns of a ticket as the API answers it; joined with its assignee. */
export const ticketColumns = {
  id: tickets.id,
  ticketNumber: tickets.ticketNumber,
  subject: tickets.subject,
  description: tickets.description,
  status: tickets.status,
  priority: tickets.priority,
  source: tickets.source,
  requesterName: tickets.requesterName,
  requesterEmail: tickets.requesterEmail,
  assigneeId: tickets.assigneeId,
  assigneeFirstName: assignee.firstName,
  assigneeLastName: assignee.lastName,
  tags: tickets.tags,
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
  solvedAt: tickets.solvedAt,
  slaDueAt: tickets.slaDueAt,
  slaKind: sql<SlaKind | null>`${SLA_KIND}`,
};

export type TicketRow = {
  id: string;
  ticketNumber: number;
  subject: string;
  description: string;
  status: TicketSummary["status"];
  priority: TicketSummary["priority"];
  source: TicketSummary["source"];
  requesterName: string;
  requesterEmail: string;
  assigneeId: string | null;
  assigneeFirstName: string | null;
  assigneeLastName: string | null;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
  solvedAt: Date | null;
  slaDueAt: Date | null;
  slaKind: SlaKind | null;
};

/**
 * A TicketRow as Drizzle maps it (times as Dates) or as a raw statement reads it (ticketSelectList: times as
 * PostgreSQL prints them).
 */
export type TicketRowRead = Omit<TicketRow, "createdAt" | "updatedAt" | "solvedAt" | "slaDueAt"> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  solvedAt: Date | string | null;
  slaDueAt: Date | string | null;
};

export function toTicketSummary(row: TicketRowRead): TicketSummary {
  const name = row.requesterName.trim();
  const space = name.indexOf(" ");
  return {
    id: row.id,
    ticket_number: row.ticketNumber,
    subject: row.subject,
    description: row.description,
    status: row.status,
    priority: row.priority,
    source: row.source,
    requester_name: row.requesterName,
    requester_email: row.requesterEmail,
    requester_first_name: space === -1 ? name : name.slice(0, space),
    requester_last_name: space === -1 ? "" : name.slice(space + 1).trim(),
    assignee_id: row.assigneeId,
    assignee_first_name: row.assigneeFirstName,
    assignee_last_name: row.assigneeLastName,
    tags: row.tags,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstant(row.updatedAt),
    solved_at: row.solvedAt === null ? null : isoInstant(row.solvedAt),
    sla_due: row.slaDueAt && row.slaKind ? { kind: row.slaKind, due_at: isoInstant(row.slaDueAt) } : null,
  };
}

/**
 * The columns of ticketColumns (the one list of what a ticket answer holds) as a raw statement's select list, named
 * like TicketRow; `description` stands in for the description's column (the list answers a preview of it).
 */
export const ticketSelectList = (description: SQLWrapper = tickets.description) =>
  sql.join(
    Object.entries(ticketColumns).map(
      ([name, column]) => sql`${name === "description" ? description : column} as ${sql.identifier(name)}`,
    ),
    sql`, `,
  );

export async function findTicketRow(db: Queryable, orgId: string, id: string): Promise<TicketRow | undefined> {
  const [row] = await db
    .select(ticketColumns)
    .from(tickets)
    .leftJoin(assignee, eq(assignee.id, tickets.assigneeId))
    .where(and(eq(tickets.organizationId, orgId), eq(tickets.id, id)))
    .limit(1);
  return row;
}

/**
 * A ticket's facts other modules act on (its email, its survey): number, subject, state, requester and their
 * contact, assignee, when it was solved. Undefined when the organization has no such ticket.
 */
export async function findTicketBasics(db: Queryable, orgId: string, id: string) {
  const [row] = await db
    .select({
      ticketNumber: tickets.ticketNumber,
      subject: tickets.subject,
      status: tickets.status,
      requesterEmail: tickets.requesterEmail,
      contactId: tickets.contactId,
      assigneeId: tickets.assigneeId,
      solvedAt: tickets.solvedAt,
    })
    .from(tickets)
    .where(and(eq(tickets.organizationId, orgId), eq(tickets.id, id)))
    .limit(1);
  return row;
}

/** Whether the organization has this ticket (for a module that attaches something to it, e.g. a file). */
export async function ticketExistsInOrg(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.organizationId, orgId), eq(tickets.id, id)))
    .limit(1);
  return row !== undefined;
}

/** One comment's text and whether it is public, for a handler that reacts to it (comment.added carries its id only). */
export async function findComment(
  db: Queryable,
  orgId: string,
  commentId: string,
): Promise<{ body: string; isPublic: boolean } | undefined> {
  const [row] = await db
    .select({ body: ticketComments.body, isPublic: ticketComments.isPublic })
    .from(ticketComments)
    .where(and(eq(ticketComments.organizationId, orgId), eq(ticketComments.id, commentId)))
    .limit(1);
  return row;
}

/** When the team first answered the ticket in public (a member's reply: not a customer's, a rule's or a key's). */
export async function firstTeamReplyAt(db: Queryable, orgId: string, ticketId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: ticketComments.createdAt })
    .from(ticketComments)
    .where(
      and(
        eq(ticketComments.organizationId, orgId),
        eq(ticketComments.ticketId, ticketId),
        eq(ticketComments.isPublic, true),
        isNotNull(ticketComments.authorId),
      ),
    )
    .orderBy(asc(ticketComments.createdAt))
    .limit(1);
  return row?.at ?? null;
}

/** What a comment is shown with. */
export const commentColumns = {
  id: ticketComments.id,
  body: ticketComments.body,
  isPublic: ticketComments.isPublic,
  authorName: ticketComments.authorName,
  authorEmail: ticketComments.authorEmail,
  createdAt: ticketComments.createdAt,
};

export async function listComments(db: Queryable, orgId: string, ticketId: string): Promise<Comment[]> {
  const rows = await db
    .select({
      ...commentColumns,
      // A public reply emailed to the requester (modules/email): how its delivery stands.
      // (Columns named in full: drizzle writes a bare "id" here, which inside the subquery would mean m.id.)
      emailStatus: ticketParts.emailStatus(sql`"ticket_comments"."organization_id"`, sql`"ticket_comments"."id"`),
    })
    .from(ticketComments)
    .where(and(eq(ticketComments.organizationId, orgId), eq(ticketComments.ticketId, ticketId)))
    .orderBy(asc(ticketComments.createdAt), asc(ticketComments.id));
  return rows.map(toComment);
}

export function toComment(row: {
  id: string;
  body: string;
  isPublic: boolean;
  authorName: string;
  authorEmail: string;
  createdAt: Date;
  emailStatus?: CommentEmailStatus | null;
}): Comment {
  return {
    id: row.id,
    body: row.body,
    is_public: row.isPublic,
    author_name: row.authorName,
    author_email: row.authorEmail,
    created_at: row.createdAt.toISOString(),
    email_status: row.emailStatus ?? null,
  };
}

/** What findTicketDetail reads: the ticket's row and its parts, each as JSON with the contract's names. */
type TicketDetailRow = TicketRowRead & Pick<Ticket, "comments" | "activity" | "attachments" | "rating">;

/**
 * findTicketDetail's statement, built on first use and then kept with its values apart (Filled, platform/db.ts); not
 * at load, since its parts come from other modules (tickets.parts.ts).
 */
let ticketDetail: SQL | undefined;
const ticketDetailTemplate = () =>
  (ticketDetail ??= sql`select ${ticketSelectList()},
      (select coalesce(json_agg(json_build_object('id', c.id, 'body', c.body, 'is_public', c.is_public,
           'author_name', c.author_name, 'author_email', c.author_email, 'created_at', c.created_at,
           'email_status', ${ticketParts.emailStatus(sql`c.organization_id`, sql`c.id`)})
           order by c.created_at, c.id), '[]')
        from ${ticketComments} c where c.organization_id = ${sql.placeholder("org")} and c.ticket_id = ${tickets.id}) as comments,
      (select coalesce(json_agg(json_build_object('id', e.id, 'type', e.type, 'actor_name', e.actor_name,
           'from_value', e.from_value, 'to_value', e.to_value, 'created_at', e.created_at)
           order by e.created_at, e.seq), '[]')
        from ${ticketEvents} e where e.organization_id = ${sql.placeholder("org")} and e.ticket_id = ${tickets.id}) as activity,
      ${ticketParts.attachments(tickets.organizationId, tickets.id)} as attachments,
      ${ticketParts.rating(tickets.organizationId, tickets.id)} as rating
    from ${tickets} left join ${users} assignee on assignee.id = ${tickets.assigneeId}
    where ${tickets.organizationId} = ${sql.placeholder("org")} and ${tickets.id} = ${sql.placeholder("id")}`);

/**
 * A ticket with all its detail shows, in one statement, so one round trip (it was five: docs/benchmarks.md, issue 34):
 * its columns and assignee, its comments in order with their emails' status, its activity, its files and its rating,
 * the lists as JSON arrays. Every part names the organization, under row-level security too (CODE_STYLE.md, "Queries").
 * A OneRead (platform/tenancy.ts): the detail's route sends it with its transaction's BEGIN and COMMIT; undefined when
 * the organization has no such ticket.
 */
export function ticketDetailRead(orgId: string, id: string): OneRead<TicketDetailRow, Ticket | undefined> {
  return {
    statement: filled(ticketDetailTemplate(), { org: orgId, id }),
    byValue: false,
    answer: ([row]) =>
      row && {
        ...toTicketSummary(row),
        comments: row.comments.map((c) => ({ ...c, created_at: isoInstant(c.created_at) })),
        activity: row.activity.map((a) => ({ ...a, created_at: isoInstant(a.created_at) })),
        attachments: row.attachments,
        rating: row.rating && { ...row.rating, rated_at: isoInstant(row.rating.rated_at) },
      },
  };
}

/** The ticket's detail (ticketDetailRead) in a transaction already open. */
export const findTicketDetail = (db: Queryable, orgId: string, id: string) => readIn(db, ticketDetailRead(orgId, id));

/** Appends a comment's words to its ticket's search vector. */
export const appendCommentWords = (body: string) =>
  sql`${tickets.commentsTsv} || to_tsvector('english'::regconfig, ${body})`;

/** A condition for another module's statement: the comment (by its organization and id) is a public one. */
export const isPublicComment = (orgId: SQLWrapper, commentId: SQLWrapper) =>
  sql`exists (select 1 from ${ticketComments} c where c.organization_id = ${orgId} and c.id = ${commentId} and c.is_public)`;

/**
 * A scalar subquery: how many tickets the organization created since a time, counted up to cap at most (a month's
 * count for the plan's limit never reads more index entries than the limit).
 */
export const ticketsCreatedSince = (orgId: string, since: SQL, cap: number) =>
  sql`(select count(*)::int from (select 1 from ${tickets} t
        where t.organization_id = ${orgId} and t.created_at >= ${since} limit ${cap}) x)`;

/** Tickets created per day over the last 30 days in the organization's time zone (days with tickets only). */
export async function ticketsCreatedPerDay(db: Queryable, orgId: string): Promise<{ day: string; created: number }[]> {
  return queryRows<{ day: string; created: number }>(
    db,
    sql`with tz as (select timezone as name from organizations where id = ${orgId})
        select to_char(date_trunc('day', t.created_at at time zone tz.name), 'YYYY-MM-DD') as day, count(*)::int as created
        from ${tickets} t, tz
        where t.organization_id = ${orgId}
          and t.created_at >= (date_trunc('day', now() at time zone tz.name) at time zone tz.name) - interval '29 days'
        group by 1 order by 1`,
  );
}

/** Scalar subqueries for a contact list: how many tickets a contact has, and when the latest changed. */
export const contactTicketCount = (orgId: SQLWrapper, contactId: SQLWrapper) =>
  sql`(select count(*) from ${tickets} t where t.organization_id = ${orgId} and t.contact_id = ${contactId})`;
export const contactLastTicketAt = (orgId: SQLWrapper, contactId: SQLWrapper) =>
  sql`(select max(t.updated_at) from ${tickets} t where t.organization_id = ${orgId} and t.contact_id = ${contactId})`;

/** A contact's latest tickets (but one, when except is given), most recently changed first. */
export async function ticketsOfContact(
  db: Queryable,
  orgId: string,
  contactId: string,
  except: string | null,
  limit: number,
) {
  return queryRows<{
    id: string;
    ticket_number: number;
    subject: string;
    status: TicketSummary["status"];
    priority: TicketSummary["priority"];
    created_at: Date | string;
    updated_at: Date | string;
  }>(
    db,
    sql`select id, ticket_number, subject, status, priority, created_at, updated_at from ${tickets}
        where organization_id = ${orgId} and contact_id = ${contactId}
          and (${except}::uuid is null or id <> ${except}::uuid)
        order by updated_at desc, ticket_number desc
        limit ${limit}`,
  );
}

/** The contact a ticket's requester is (null: none), or undefined when the organization has no such ticket. */
export async function contactIdOfTicket(
  db: Queryable,
  orgId: string,
  ticketId: string,
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ contactId: tickets.contactId })
    .from(tickets)
    .where(and(eq(tickets.organizationId, orgId), eq(tickets.id, ticketId)));
  return row === undefined ? undefined : row.contactId;
}

/**
 * A subquery (id, status, contact_id, ticket_number) of the organization's tickets an email's sender may write into:
 * those they asked for, by the requester's address or their contact's (sender null: an active member, any ticket).
 */
export const ticketsAnswerableBy = (orgId: string, sender: string | null) =>
  sql`select t.id, t.status, t.contact_id, t.ticket_number from ${tickets} t
      where t.organization_id = ${orgId}
        and ${sender === null ? sql`true` : sql`(lower(t.requester_email) = ${sender} or ${contactHasEmail(sql`t.organization_id`, sql`t.contact_id`, sender)})`}`;
