import type { DomainEvent } from "@cove/contract/events.ts";
import { and, eq } from "drizzle-orm";
import { chatSessions } from "../../db/schema/chat.ts";
import { users } from "../../db/schema/users.ts";
import type { EventBus, EventContext } from "../../platform/events.ts";
import { suggestFromAnswer } from "../ai/index.ts";
import { notify } from "../notifications/index.ts";
import { messageWithQuestion } from "./chat.queries.ts";

/**
 * The bell's "chat waiting" (docs/product.md): when the assistant hands a chat to the team, every active member is told, in
 * the transaction of the hand-off, so the notification exists exactly when the session waits.
 */
export function registerChatHandlers(bus: EventBus): void {
  bus.onInTransaction(["chat.handed_off"], onHandedOff);
  bus.onInTransaction(["chat.message_added"], fromAgentMessage);
}

/**
 * An agent's chat message that links a help article answers what the visitor last wrote: the assistant learns that
 * question for the article (ai/suggestions.ts, the same path as a ticket reply's link).
 */
async function fromAgentMessage(ctx: EventContext, event: DomainEvent<"chat.message_added">) {
  if (event.data.sender_type !== "agent") return;
  const found = await messageWithQuestion(ctx.db, ctx.orgId, event.data.session_id, event.data.message_id);
  if (!found?.question || !found.message.message.includes("/articles/")) return;
  await suggestFromAnswer(ctx, found.message.message, found.question, "chat", event.data.session_id);
}

async function onHandedOff(ctx: EventContext, event: DomainEvent<"chat.handed_off">) {
  const [session] = await ctx.db
    .select({ id: chatSessions.id, name: chatSessions.visitorName, last: chatSessions.lastMessage })
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, event.data.session_id)));
  if (!session) return;
  const members = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.status, "active")));
  await notify(
    ctx,
    members.map((m) => ({
      userId: m.id,
      type: "chat_waiting" as const,
      actorName: session.name,
      title: `${session.name} is waiting for a person in live chat`,
      excerpt: session.last ?? "",
      link: `/chat?session=${session.id}`,
    })),
  );
}
