import type { Comment, createCommentBody, createTicketBody, Ticket, updateTicketBody } from "@cove/contract/tickets.ts";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { assertTicketAllowed } from "../billing/limits.ts";
import {
  appendCommentWords,
  findTicketRow,
  listActivity,
  listComments,
  toComment,
  toTicketSummary,
} from "./tickets.queries.ts";

const ticketNotFound = () => notFound("Ticket");

async function actor(ctx: Ctx) {
  const [me] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, ctx.userId)));
  if (!me) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return { name: `${me.firstName} ${me.lastName}`.trim(), email: me.email };
}

export async function getTicket(ctx: Ctx, id: string): Promise<Ticket> {
  const row = await findTicketRow(ctx.db, ctx.orgId, id);
  if (!row) throw ticketNotFound();
  const [comments, activity] = await Promise.all([
    listComments(ctx.db, ctx.orgId, id),
    listActivity(ctx.db, ctx.orgId, id),
  ]);
  return { ...toTicketSummary(row), comments, activity };
}

async function assertAssignable(ctx: Ctx, userId: string) {
  const [member] = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, userId), eq(users.status, "active")));
  if (!member) throw new AppError("BAD_REQUEST", "The assignee must be an active member of your team.");
  return `${member.firstName} ${member.lastName}`.trim();
}

export async function createTicket(ctx: Ctx, input: z.output<typeof createTicketBody>): Promise<Ticket> {
  const me = await actor(ctx);
  // Bumping the organization's counter locks its row until commit, so concurrent creations queue for a number.
  const [seq] = await ctx.db
    .update(organizations)
    .set({ ticketSeq: sql`${organizations.ticketSeq} + 1` })
    .where(eq(organizations.id, ctx.orgId))
    .returning({ number: organizations.ticketSeq });
  if (!seq) throw notFound("Organization");
  // Under that lock: the plan's tickets per month and read-only mode (modules/billing/limits.ts).
  await assertTicketAllowed(ctx);
  const [created] = await ctx.db
    .insert(tickets)
    .values({
      organizationId: ctx.orgId,
      ticketNumber: seq.number,
      subject: input.subject,
      description: input.description,
      priority: input.priority,
      requesterName: input.requester_name,
      requesterEmail: input.requester_email,
      tags: input.tags,
      source: "web",
    })
    .returning({ id: tickets.id });
  if (!created) throw new Error("ticket insert returned nothing");
  await ctx.db.insert(ticketEvents).values({
    organizationId: ctx.orgId,
    ticketId: created.id,
    actorId: ctx.userId,
    actorName: me.name,
    type: "created",
    toValue: `#${seq.number}`,
  });
  return getTicket(ctx, created.id);
}

export async function updateTicket(ctx: Ctx, id: string, input: z.output<typeof updateTicketBody>): Promise<Ticket> {
  const before = await findTicketRow(ctx.db, ctx.orgId, id);
  if (!before) throw ticketNotFound();
  const me = await actor(ctx);
  const changes: Partial<typeof tickets.$inferInsert> = {};
  const events: (typeof ticketEvents.$inferInsert)[] = [];
  const event = (type: "status" | "priority" | "assignee" | "tags", from: string | null, to: string | null) =>
    events.push({
      organizationId: ctx.orgId,
      ticketId: id,
      actorId: ctx.userId,
      actorName: me.name,
      type,
      fromValue: from,
      toValue: to,
    });

  if (input.status && input.status !== before.status) {
    changes.status = input.status;
    const solvedNow = input.status === "solved" || input.status === "closed";
    changes.solvedAt = solvedNow ? (before.solvedAt ?? new Date()) : null;
    event("status", before.status, input.status);
  }
  if (input.priority && input.priority !== before.priority) {
    changes.priority = input.priority;
    event("priority", before.priority, input.priority);
  }
  if (input.assignee_id !== undefined && input.assignee_id !== before.assigneeId) {
    const toName = input.assignee_id === null ? null : await assertAssignable(ctx, input.assignee_id);
    const fromName = before.assigneeId
      ? `${before.assigneeFirstName ?? ""} ${before.assigneeLastName ?? ""}`.trim()
      : null;
    changes.assigneeId = input.assignee_id;
    event("assignee", fromName, toName);
  }
  if (input.tags && input.tags.join("\u0001") !== before.tags.join("\u0001")) {
    changes.tags = input.tags;
    event("tags", before.tags.join(", ") || null, input.tags.join(", ") || null);
  }
  if (events.length > 0) {
    await ctx.db
      .update(tickets)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.id, id)));
    await ctx.db.insert(ticketEvents).values(events);
  }
  return getTicket(ctx, id);
}

export async function addComment(
  ctx: Ctx,
  ticketId: string,
  input: z.output<typeof createCommentBody>,
): Promise<Comment> {
  const me = await actor(ctx);
  const [touched] = await ctx.db
    .update(tickets)
    .set({ updatedAt: new Date(), commentsTsv: appendCommentWords(input.body) })
    .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.id, ticketId)))
    .returning({ id: tickets.id });
  if (!touched) throw ticketNotFound();
  const [comment] = await ctx.db
    .insert(ticketComments)
    .values({
      organizationId: ctx.orgId,
      ticketId,
      authorId: ctx.userId,
      authorName: me.name,
      authorEmail: me.email,
      body: input.body,
      isPublic: input.is_public,
    })
    .returning({
      id: ticketComments.id,
      body: ticketComments.body,
      isPublic: ticketComments.isPublic,
      authorName: ticketComments.authorName,
      authorEmail: ticketComments.authorEmail,
      createdAt: ticketComments.createdAt,
    });
  if (!comment) throw new Error("comment insert returned nothing");
  return toComment(comment);
}
