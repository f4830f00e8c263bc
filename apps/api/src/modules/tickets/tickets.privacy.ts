import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/**
 * A customer's tickets for their data request (modules/privacy): what their export holds, and erasing who they are
 * from them. In the caller's transaction.
 */
type TicketsCtx = Pick<TenantCtx, "orgId" | "db">;

export interface CustomerTicketExport {
  id: string;
  number: number;
  subject: string;
  description: string;
  status: string;
  priority: string;
  source: string;
  requester_name: string;
  requester_email: string;
  created_at: string;
  updated_at: string;
  solved_at: string | null;
  /** The public conversation only: internal notes are the team's, never the customer's data. */
  messages: { id: string; author_name: string; from_customer: boolean; body: string; created_at: string }[];
}

/** The customer's tickets (as requester), oldest first, each with its public replies. */
export async function customerTickets(ctx: TicketsCtx, contactId: string): Promise<CustomerTicketExport[]> {
  const rows = await ctx.db
    .select()
    .from(tickets)
    .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.contactId, contactId)))
    .orderBy(asc(tickets.ticketNumber));
  if (rows.length === 0) return [];
  const comments = await ctx.db
    .select({
      id: ticketComments.id,
      ticketId: ticketComments.ticketId,
      authorName: ticketComments.authorName,
      authorContactId: ticketComments.authorContactId,
      body: ticketComments.body,
      createdAt: ticketComments.createdAt,
    })
    .from(ticketComments)
    .where(
      and(
        eq(ticketComments.organizationId, ctx.orgId),
        inArray(
          ticketComments.ticketId,
          rows.map((r) => r.id),
        ),
        eq(ticketComments.isPublic, true),
      ),
    )
    .orderBy(asc(ticketComments.createdAt), asc(ticketComments.id));
  return rows.map((t) => ({
    id: t.id,
    number: t.ticketNumber,
    subject: t.subject,
    description: t.description,
    status: t.status,
    priority: t.priority,
    source: t.source,
    requester_name: t.requesterName,
    requester_email: t.requesterEmail,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    solved_at: t.solvedAt ? t.solvedAt.toISOString() : null,
    messages: comments
      .filter((c) => c.ticketId === t.id)
      .map((c) => ({
        id: c.id,
        author_name: c.authorName,
        from_customer: c.authorContactId === contactId,
        body: c.body,
        created_at: c.createdAt.toISOString(),
      })),
  }));
}

/**
 * Removes the customer's identity from the team's history: on their tickets (as requester, by contact or by their
 * email) and on the replies they wrote, their name becomes `anonymous.name` and their email `anonymous.email`, and so
 * does their name on the activity they caused. The tickets, their numbers and the replies' text stay. Answers the tickets' ids and the customer's replies' ids.
 */
export async function anonymizeCustomerInTickets(
  ctx: TicketsCtx,
  contactId: string,
  email: string | null,
  formerName: string,
  anonymous: { name: string; email: string },
): Promise<{ ticketIds: string[]; commentIds: string[] }> {
  const theirs = email
    ? sql`(${tickets.contactId} = ${contactId} or lower(${tickets.requesterEmail}) = ${email})`
    : eq(tickets.contactId, contactId);
  const changed = await ctx.db
    .update(tickets)
    .set({ requesterName: anonymous.name, requesterEmail: anonymous.email })
    .where(and(eq(tickets.organizationId, ctx.orgId), theirs))
    .returning({ id: tickets.id });
  const authored = email
    ? sql`(${ticketComments.authorContactId} = ${contactId}
           or (${ticketComments.authorId} is null and lower(${ticketComments.authorEmail}) = ${email}))`
    : eq(ticketComments.authorContactId, contactId);
  const comments = await ctx.db
    .update(ticketComments)
    .set({ authorName: anonymous.name, authorEmail: anonymous.email })
    .where(and(eq(ticketComments.organizationId, ctx.orgId), authored))
    .returning({ id: ticketComments.id });
  const ticketIds = changed.map((r) => r.id);
  // Their own steps in the activity (a ticket they opened from the portal): no member did them, and they bear their name.
  if (ticketIds.length > 0 && formerName) {
    await ctx.db
      .update(ticketEvents)
      .set({ actorName: anonymous.name })
      .where(
        and(
          eq(ticketEvents.organizationId, ctx.orgId),
          inArray(ticketEvents.ticketId, ticketIds),
          sql`${ticketEvents.actorId} is null`,
          eq(ticketEvents.actorName, formerName),
        ),
      );
  }
  return { ticketIds, commentIds: comments.map((r) => r.id) };
}
