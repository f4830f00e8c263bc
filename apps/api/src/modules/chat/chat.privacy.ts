import { and, asc, eq, inArray } from "drizzle-orm";
import { chatMessages, chatSessions } from "../../db/schema/chat.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/** A customer's live chats for their data request (modules/privacy), in the caller's transaction. */
type ChatCtx = Pick<TenantCtx, "orgId" | "db">;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface CustomerChatExport {
  id: string;
  visitor_name: string;
  visitor_email: string | null;
  status: string;
  started_at: string;
  ended_at: string | null;
  rating: string | null;
  rated_at: string | null;
  messages: { id: string; sender: string; sender_name: string | null; message: string; created_at: string }[];
}

/** The customer's chats, oldest first, each with its messages. */
export async function customerChats(ctx: ChatCtx, contactId: string): Promise<CustomerChatExport[]> {
  const sessions = await ctx.db
    .select()
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.contactId, contactId)))
    .orderBy(asc(chatSessions.startedAt), asc(chatSessions.id));
  if (sessions.length === 0) return [];
  const messages = await ctx.db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.organizationId, ctx.orgId),
        inArray(
          chatMessages.sessionId,
          sessions.map((s) => s.id),
        ),
      ),
    )
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
  return sessions.map((s) => ({
    id: s.id,
    visitor_name: s.visitorName,
    visitor_email: s.visitorEmail,
    status: s.status,
    started_at: s.startedAt.toISOString(),
    ended_at: iso(s.endedAt),
    rating: s.rating,
    rated_at: iso(s.ratedAt),
    messages: messages
      .filter((m) => m.sessionId === s.id)
      .map((m) => ({
        id: m.id,
        sender: m.senderType,
        sender_name: m.senderName,
        message: m.message,
        created_at: m.createdAt.toISOString(),
      })),
  }));
}

/** The ids of the customer's chats. */
export async function chatIdsOfContact(ctx: ChatCtx, contactId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.contactId, contactId)));
  return rows.map((r) => r.id);
}

/** Deletes the customer's chats; their messages (and the files in them) go with them. Answers how many. */
export async function deleteChatsOfContact(ctx: ChatCtx, contactId: string): Promise<number> {
  const gone = await ctx.db
    .delete(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.contactId, contactId)))
    .returning({ id: chatSessions.id });
  return gone.length;
}
