import { readRuleActor } from "@cove/contract/automation.ts";
import type { ActorRef, DomainEvent } from "@cove/contract/events.ts";
import { and, eq } from "drizzle-orm";
import { users } from "../../db/schema/users.ts";
import type { EventBus, EventContext } from "../../platform/events.ts";
import { findContactCard } from "../contacts/index.ts";
import { findComment, findTicketRow, systemActorName } from "../tickets/index.ts";
import { type NewNotification, notify } from "./notifications.service.ts";

/**
 * The bell's sources (docs/product.md): a ticket assigned to you, a reply or note on a ticket you are assigned to, and an
 * internal note that mentions you as @First Last. They run in the transaction of the change, so a notification exists
 * exactly when what it announces does. Nobody is notified of their own action, and an automation rule's comment is not
 * a reply (a rule that assigns and comments tells the assignee once, by the assignment).
 */
export function registerNotificationHandlers(bus: EventBus): void {
  bus.onInTransaction(["ticket.assigned"], onAssigned);
  bus.onInTransaction(["comment.added"], onComment);
}

async function actorName(ctx: EventContext, actor: ActorRef): Promise<string> {
  if (actor.kind === "staff") {
    const [u] = await ctx.db
      .select({ first: users.firstName, last: users.lastName })
      .from(users)
      .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, actor.id)));
    return u ? `${u.first} ${u.last}`.trim() : "A teammate";
  }
  if (actor.kind === "contact") {
    const c = await findContactCard(ctx.db, ctx.orgId, actor.id);
    return c?.name || "A customer";
  }
  return actor.kind === "system" ? systemActorName(actor.id) : "Cove";
}

const staffId = (actor: ActorRef) => (actor.kind === "staff" ? actor.id : null);
const byRule = (actor: ActorRef) => actor.kind === "system" && readRuleActor(actor.id) !== null;

async function onAssigned(ctx: EventContext, event: DomainEvent<"ticket.assigned">) {
  const to = event.data.to;
  if (!to || to === staffId(event.actor)) return;
  const ticket = await findTicketRow(ctx.db, ctx.orgId, event.data.ticket_id);
  if (!ticket) return;
  await notify(ctx, [
    {
      userId: to,
      type: "assigned",
      actorName: await actorName(ctx, event.actor),
      title: `#${ticket.ticketNumber} ${ticket.subject}`,
      link: `/tickets/${ticket.id}`,
      ticketId: ticket.id,
    },
  ]);
}

async function onComment(ctx: EventContext, event: DomainEvent<"comment.added">) {
  const comment = await findComment(ctx.db, ctx.orgId, event.data.comment_id);
  const ticket = await findTicketRow(ctx.db, ctx.orgId, event.data.ticket_id);
  if (!comment || !ticket) return;
  const author = staffId(event.actor);
  const name = await actorName(ctx, event.actor);
  const title = `#${ticket.ticketNumber} ${ticket.subject}`;
  const link = `/tickets/${ticket.id}`;
  const list: NewNotification[] = [];
  const mentioned = comment.isPublic ? [] : await mentionedMembers(ctx, comment.body);
  for (const userId of mentioned) {
    if (userId === author) continue;
    list.push({ userId, type: "mention", actorName: name, title, excerpt: comment.body, link, ticketId: ticket.id });
  }
  const assigneeId = ticket.assigneeId;
  if (assigneeId && assigneeId !== author && !mentioned.includes(assigneeId) && !byRule(event.actor)) {
    list.push({
      userId: assigneeId,
      type: "reply",
      actorName: name,
      title,
      excerpt: comment.body,
      link,
      ticketId: ticket.id,
    });
  }
  await notify(ctx, list);
}

/** Active members named as @First Last in a note (case does not matter; the name must end at a word boundary). */
async function mentionedMembers(ctx: EventContext, body: string): Promise<string[]> {
  if (!body.includes("@")) return [];
  const text = body.toLocaleLowerCase();
  const members = await ctx.db
    .select({ id: users.id, first: users.firstName, last: users.lastName })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.status, "active")));
  return members
    .filter((m) => {
      const handle = `@${`${m.first} ${m.last}`.trim().replace(/\s+/g, " ").toLocaleLowerCase()}`;
      for (let at = text.indexOf(handle); at !== -1; at = text.indexOf(handle, at + 1)) {
        const next = text[at + handle.length];
        if (next === undefined || !/[\p{L}\p{N}]/u.test(next)) return true;
      }
      return false;
    })
    .map((m) => m.id);
}
