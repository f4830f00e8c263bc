import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS } from "@cove/contract/attachment-limits.ts";
import { readRuleActor } from "@cove/contract/automation.ts";
import { ASSISTANT_ACTOR, type TicketChanges } from "@cove/contract/events.ts";
import type {
  Comment,
  createCommentBody,
  createTicketBody,
  Ticket,
  TicketPriority,
  TicketSource,
  TicketStatus,
  updateTicketBody,
} from "@cove/contract/tickets.ts";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { ticketComments, ticketEvents, tickets } from "../../db/schema/tickets.ts";
import { users } from "../../db/schema/users.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { apiKeyName } from "../api-keys/index.ts";
import { assertTicketAllowed, assertWritable } from "../billing/index.ts";
import { findContactCard, findOrCreateContact } from "../contacts/index.ts";
import { ticketParts } from "./tickets.parts.ts";
import {
  appendCommentWords,
  commentColumns,
  findTicketDetail,
  findTicketRow,
  ticketsCreatedSince,
  toComment,
} from "./tickets.queries.ts";

export const ticketNotFound = () => notFound("Ticket");

/** Who acts, as the ticket's activity and comments record them. */
interface Author {
  /** The member, when a member acts. */
  userId: string | null;
  /** The customer, when a contact acts (a ticket or reply from the portal). */
  contactId: string | null;
  name: string;
  email: string;
}

/** A member (with their id), the customer (a contact: the portal), an API key, or Cove itself. */
async function actor(ctx: TenantCtx): Promise<Author> {
  const none = { userId: null, contactId: null };
  if (ctx.actor.kind === "system") return { ...none, name: systemActorName(ctx.actor.id), email: "" };
  if (ctx.actor.kind === "api_key") {
    const key = await apiKeyName(ctx.db, ctx.orgId, ctx.actor.id);
    return { ...none, name: `API: ${key ?? "key"}`, email: "" };
  }
  if (ctx.actor.kind === "contact") {
    const contact = await findContactCard(ctx.db, ctx.orgId, ctx.actor.id);
    if (!contact) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
    return { ...none, contactId: ctx.actor.id, name: contact.name, email: contact.email ?? "" };
  }
  if (ctx.actor.kind !== "staff") throw new AppError("FORBIDDEN", "This is only for your support team's staff.");
  const [me] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, ctx.actor.id)));
  if (!me) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return { ...none, userId: ctx.actor.id, name: `${me.firstName} ${me.lastName}`.trim(), email: me.email };
}

/** How the system actors are named in a ticket's activity. */
const SYSTEM_NAMES: Record<string, string> = { automation: "Automation", [ASSISTANT_ACTOR.id]: "AI Assistant" };

/** A system actor's name; an automation rule acts as "rule:<id>:<name>" and is shown by its name. */
export function systemActorName(id: string): string {
  return SYSTEM_NAMES[id] ?? readRuleActor(id)?.name ?? "Cove";
}

/** A ticket with its detail (findTicketDetail). */
export async function getTicket(ctx: TenantCtx, id: string): Promise<Ticket> {
  const ticket = await findTicketDetail(ctx.db, ctx.orgId, id);
  if (!ticket) throw ticketNotFound();
  return ticket;
}

async function assertAssignable(ctx: TenantCtx, userId: string) {
  const [member] = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, userId), eq(users.status, "active")));
  if (!member) throw new AppError("BAD_REQUEST", "The assignee must be an active member of your team.");
  return `${member.firstName} ${member.lastName}`.trim();
}

/** Where a ticket came from, and its requester's contact when the caller already knows it (portal, chat, email). */
export interface TicketOrigin {
  source: TicketSource;
  contactId?: string;
}

export async function createTicket(
  ctx: TenantCtx,
  input: z.output<typeof createTicketBody>,
  origin: TicketOrigin,
  attachmentLimits: AttachmentLimits,
): Promise<Ticket> {
  const { id } = await openTicket(ctx, input, origin);
  // The files go with the first message (comment_id null), as an email's do; a member uploaded them before the ticket
  // existed, so they are theirs (an API key has no uploads of its own: any id it sends is not found).
  const userId = ctx.actor.kind === "staff" ? ctx.actor.id : null;
  if (input.attachment_ids?.length) {
    if (!userId) throw new AppError("BAD_REQUEST", "A file of this message was not found: upload it again.");
    await ticketParts.attachPending(
      ctx.db,
      ctx.orgId,
      { ticketId: id, commentId: null, userId },
      input.attachment_ids,
      attachmentLimits,
    );
  }
  return getTicket(ctx, id);
}

/**
 * The organization's next ticket number. Bumping its counter locks the organization row (FOR NO KEY UPDATE, the first
 * lock of the order) until commit, so concurrent creations queue for a number.
 */
async function nextTicketNumber(ctx: Pick<TenantCtx, "orgId" | "db">): Promise<{ number: number }> {
  const [seq] = await ctx.db
    .update(organizations)
    .set({ ticketSeq: sql`${organizations.ticketSeq} + 1` })
    .where(eq(organizations.id, ctx.orgId))
    .returning({ number: organizations.ticketSeq });
  if (!seq) throw notFound("Organization");
  return seq;
}

/**
 * Creates a ticket and answers only its id and number: what a caller that may not read the whole ticket (a customer,
 * who never sees its activity) needs. A customer's ticket is always their own.
 */
export async function openTicket(
  ctx: TenantCtx,
  input: z.output<typeof createTicketBody>,
  origin: TicketOrigin = { source: "web" },
): Promise<{ id: string; ticketNumber: number }> {
  const me = await actor(ctx);
  if (me.contactId && origin.contactId !== me.contactId) throw new Error("a customer opens tickets as themselves");
  const seq = await nextTicketNumber(ctx);
  // Under that lock: the plan's tickets per month and read-only mode (modules/billing/limits.ts).
  await assertTicketAllowed(ctx, (since, cap) => ticketsCreatedSince(ctx.orgId, since, cap));
  // The requester becomes (or is found as) one of the organization's contacts, so their tickets can be found together.
  const contactId =
    origin.contactId ?? (await findOrCreateContact(ctx, { name: input.requester_name, email: input.requester_email }));
  const [created] = await ctx.db
    .insert(tickets)
    .values({
      organizationId: ctx.orgId,
      contactId,
      ticketNumber: seq.number,
      subject: input.subject,
      description: input.description,
      priority: input.priority,
      requesterName: input.requester_name,
      requesterEmail: input.requester_email,
      tags: input.tags,
      source: origin.source,
    })
    .returning({ id: tickets.id });
  if (!created) throw new Error("ticket insert returned nothing");
  await ctx.db.insert(ticketEvents).values({
    organizationId: ctx.orgId,
    ticketId: created.id,
    actorId: me.userId,
    actorName: me.name,
    type: "created",
    toValue: `#${seq.number}`,
  });
  await ctx.emit("ticket.created", {
    ticket_id: created.id,
    ticket_number: seq.number,
    source: origin.source,
    assignee_id: null,
  });
  return { id: created.id, ticketNumber: seq.number };
}

export async function updateTicket(
  ctx: TenantCtx,
  id: string,
  input: z.output<typeof updateTicketBody>,
): Promise<Ticket> {
  await changeTicket(ctx, id, input);
  return getTicket(ctx, id);
}

/** Changes a ticket's fields, records each change in its activity and emits the events; answers nothing. */
export async function changeTicket(
  ctx: TenantCtx,
  id: string,
  input: z.output<typeof updateTicketBody>,
): Promise<void> {
  const before = await findTicketRow(ctx.db, ctx.orgId, id);
  if (!before) throw ticketNotFound();
  const me = await actor(ctx);
  const changes: Partial<typeof tickets.$inferInsert> = {};
  const events: (typeof ticketEvents.$inferInsert)[] = [];
  const event = (type: "status" | "priority" | "assignee" | "tags", from: string | null, to: string | null) =>
    events.push({
      organizationId: ctx.orgId,
      ticketId: id,
      actorId: me.userId,
      actorName: me.name,
      type,
      fromValue: from,
      toValue: to,
    });
  const changed: TicketChanges = {};

  if (input.status && input.status !== before.status) {
    changes.status = input.status;
    const solvedNow = input.status === "solved" || input.status === "closed";
    changes.solvedAt = solvedNow ? (before.solvedAt ?? new Date()) : null;
    event("status", before.status, input.status);
    changed.status = { from: before.status, to: input.status };
  }
  if (input.priority && input.priority !== before.priority) {
    changes.priority = input.priority;
    event("priority", before.priority, input.priority);
    changed.priority = { from: before.priority, to: input.priority };
  }
  if (input.assignee_id !== undefined && input.assignee_id !== before.assigneeId) {
    const toName = input.assignee_id === null ? null : await assertAssignable(ctx, input.assignee_id);
    const fromName = before.assigneeId
      ? `${before.assigneeFirstName ?? ""} ${before.assigneeLastName ?? ""}`.trim()
      : null;
    changes.assigneeId = input.assignee_id;
    event("assignee", fromName, toName);
    changed.assignee_id = { from: before.assigneeId, to: input.assignee_id };
  }
  if (input.tags && input.tags.join("\u0001") !== before.tags.join("\u0001")) {
    changes.tags = input.tags;
    event("tags", before.tags.join(", ") || null, input.tags.join(", ") || null);
    changed.tags = { from: before.tags, to: input.tags };
  }
  if (events.length > 0) {
    await ctx.db
      .update(tickets)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.id, id)));
    await ctx.db.insert(ticketEvents).values(events);
    await ctx.emit("ticket.updated", { ticket_id: id, changes: changed });
    if (changed.status) await ctx.emit("ticket.status_changed", { ticket_id: id, ...changed.status });
    if (changed.assignee_id) await ctx.emit("ticket.assigned", { ticket_id: id, ...changed.assignee_id });
  }
}

/**
 * A reply that arrives by a channel no route guards (an email to the ticket): refused while the organization is
 * read-only (READ_ONLY), so the channel can keep it unfiled instead.
 */
export async function addChannelReply(
  ctx: TenantCtx,
  ticketId: string,
  input: z.output<typeof createCommentBody>,
): ReturnType<typeof addComment> {
  await assertWritable(ctx.db, ctx.orgId);
  return addComment(ctx, ticketId, input);
}

export async function addComment(
  ctx: TenantCtx,
  ticketId: string,
  input: z.output<typeof createCommentBody>,
  attachmentLimits: AttachmentLimits = DEFAULT_ATTACHMENT_LIMITS,
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
      authorId: me.userId,
      authorContactId: me.contactId,
      authorName: me.name,
      authorEmail: me.email,
      body: input.body,
      isPublic: input.is_public,
    })
    .returning(commentColumns);
  if (!comment) throw new Error("comment insert returned nothing");
  // A customer's files were uploaded before their ticket was chosen (portal uploads are theirs, not a ticket's).
  const contactId = ctx.actor.kind === "contact" ? ctx.actor.id : null;
  await ticketParts.attachPending(
    ctx.db,
    ctx.orgId,
    { ticketId, commentId: comment.id, contactId },
    input.attachment_ids ?? [],
    attachmentLimits,
  );
  await ctx.emit("comment.added", { ticket_id: ticketId, comment_id: comment.id, is_public: comment.isPublic });
  return toComment(comment);
}

/** A ticket as it already stood, with its replies: written straight in by the demo customer's reset. */
export interface PastTicket {
  contactId: string;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  source: TicketSource;
  requesterName: string;
  requesterEmail: string;
  assigneeId: string | null;
  createdAt: Date;
  updatedAt: Date;
  solvedAt: Date | null;
  /** In order; authorId null: the requester's contact wrote it. */
  replies: {
    authorId: string | null;
    authorName: string;
    authorEmail: string;
    body: string;
    isPublic: boolean;
    at: Date;
  }[];
}

/**
 * Writes a past ticket in the caller's transaction: the next number, its "created" activity and its replies (their
 * words searchable), at the times given. Nothing is emitted (nothing happened now): no rule, mail or notification
 * reacts, and its due times are the caller's to have recomputed.
 */
export async function insertPastTicket(ctx: Pick<TenantCtx, "orgId" | "db">, past: PastTicket): Promise<string> {
  const seq = await nextTicketNumber(ctx);
  const { replies, ...ticket } = past;
  const [row] = await ctx.db
    .insert(tickets)
    .values({ ...ticket, organizationId: ctx.orgId, ticketNumber: seq.number })
    .returning({ id: tickets.id });
  if (!row) throw new Error("ticket insert returned nothing");
  await ctx.db.insert(ticketEvents).values({
    organizationId: ctx.orgId,
    ticketId: row.id,
    actorName: past.requesterName,
    type: "created",
    toValue: `#${seq.number}`,
    createdAt: past.createdAt,
  });
  for (const reply of replies) {
    await ctx.db.insert(ticketComments).values({
      organizationId: ctx.orgId,
      ticketId: row.id,
      authorId: reply.authorId,
      authorContactId: reply.authorId === null ? past.contactId : null,
      authorName: reply.authorName,
      authorEmail: reply.authorEmail,
      body: reply.body,
      isPublic: reply.isPublic,
      createdAt: reply.at,
    });
    await ctx.db
      .update(tickets)
      .set({ commentsTsv: appendCommentWords(reply.body) })
      .where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.id, row.id)));
  }
  return row.id;
}

/** Deletes a contact's tickets; their comments, activity, files and surveys go with them (the demo customer's reset). */
export async function deleteTicketsOfContact(ctx: Pick<TenantCtx, "orgId" | "db">, contactId: string): Promise<void> {
  await ctx.db.delete(tickets).where(and(eq(tickets.organizationId, ctx.orgId), eq(tickets.contactId, contactId)));
}
