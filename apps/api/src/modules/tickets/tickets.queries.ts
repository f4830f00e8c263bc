import type { CommentEmailStatus } from "@cove/contract/email.ts";
import type { Activity, Comment, SlaKind, TicketSummary } from "@cove/contract/tickets.ts";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import type { Queryable } from "../../platform/db.ts";

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

export function toTicketSummary(row: TicketRow): TicketSummary {
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
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    solved_at: row.solvedAt?.toISOString() ?? null,
    sla_due: row.slaDueAt && row.slaKind ? { kind: row.slaKind, due_at: row.slaDueAt.toISOString() } : null,
  };
}

export async function findTicketRow(db: Queryable, orgId: string, id: string): Promise<TicketRow | undefined> {
  const [row] = await db
    .select(ticketColumns)
    .from(tickets)
    .leftJoin(assignee, eq(assignee.id, tickets.assigneeId))
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

export async function listComments(db: Queryable, orgId: string, ticketId: string): Promise<Comment[]> {
  const rows = await db
    .select({
      id: ticketComments.id,
      body: ticketComments.body,
      isPublic: ticketComments.isPublic,
      authorName: ticketComments.authorName,
      authorEmail: ticketComments.authorEmail,
      createdAt: ticketComments.createdAt,
      // A public reply emailed to the requester (modules/email): how its delivery stands.
      // (Columns named in full: drizzle writes a bare "id" here, which inside the subquery would mean m.id.)
      emailStatus: sql<CommentEmailStatus | null>`(select m.status from email_messages m
        where m.organization_id = "ticket_comments"."organization_id" and m.comment_id = "ticket_comments"."id"
          and m.direction = 'out' order by m.created_at desc limit 1)`,
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

export async function listActivity(db: Queryable, orgId: string, ticketId: string): Promise<Activity[]> {
  const rows = await db
    .select({
      id: ticketEvents.id,
      type: ticketEvents.type,
      actorName: ticketEvents.actorName,
      fromValue: ticketEvents.fromValue,
      toValue: ticketEvents.toValue,
      createdAt: ticketEvents.createdAt,
    })
    .from(ticketEvents)
    .where(and(eq(ticketEvents.organizationId, orgId), eq(ticketEvents.ticketId, ticketId)))
    .orderBy(asc(ticketEvents.createdAt), asc(ticketEvents.seq));
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    actor_name: r.actorName,
    from_value: r.fromValue,
    to_value: r.toValue,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Appends a comment's words to its ticket's search vector. */
export const appendCommentWords = (body: string) =>
  sql`${tickets.commentsTsv} || to_tsvector('english'::regconfig, ${body})`;
