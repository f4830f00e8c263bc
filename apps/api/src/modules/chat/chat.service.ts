import {
  CHAT_MESSAGE_PAGE,
  CHAT_SESSION_LIST_MAX,
  type ChatMessage,
  type ChatSession,
  type ChatStatsAnswer,
} from "@cove/contract/chat.ts";
import { and, eq, sql } from "drizzle-orm";
import { chatSessions } from "../../db/schema/chat.ts";
import { users } from "../../db/schema/users.ts";
import { preparedRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { type FileContent, safeFilename } from "../attachments/index.ts";
import { insertMessage, preview, selectMessages, selectSession, selectSessions, sessionOf } from "./chat.queries.ts";
import { attachChatFile, type ChatFile } from "./chat-files.ts";

const SESSION = "Chat session";

/** The session list: waiting ones first, then the most recently active. */
export function listSessions(ctx: Ctx): Promise<ChatSession[]> {
  return selectSessions(ctx, undefined, CHAT_SESSION_LIST_MAX);
}

/** One session of the organization; any other id, malformed ones included, is not found. */
export async function getSession(ctx: Pick<TenantCtx, "orgId" | "db">, id: string): Promise<ChatSession> {
  const session = await selectSession(ctx, recordId(SESSION, id));
  if (!session) throw notFound(SESSION);
  return session;
}

export async function listMessages(ctx: Ctx, id: string): Promise<ChatMessage[]> {
  const session = await getSession(ctx, id);
  return selectMessages(ctx.db, ctx.orgId, session.id, CHAT_MESSAGE_PAGE, "staff");
}

/** Locks the session's row for a change, so two agents' changes to it apply one after the other. */
async function lockSession(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select({ id: chatSessions.id, status: chatSessions.status, firstHumanReplyAt: chatSessions.firstHumanReplyAt })
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, recordId(SESSION, id))))
    .for("update");
  if (!row) throw notFound(SESSION);
  return row;
}

const notActive = () => new AppError("CONFLICT", "This chat has ended: it can no longer be changed or answered.");

async function memberFirstName(ctx: Ctx): Promise<string> {
  const [me] = await ctx.db
    .select({ first: users.firstName })
    .from(users)
    .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId)));
  return me?.first || "Support";
}

async function announceChange(ctx: TenantCtx, id: string): Promise<ChatSession> {
  const session = await getSession(ctx, id);
  await ctx.emit("chat.session_changed", {
    session_id: id,
    status: session.status,
    waiting_for_human: session.waiting_for_human,
  });
  return session;
}

/**
 * An agent's reply. The first one ends the wait for a person (and the assistant's part: it stays silent from then
 * on) and, if nobody has the session yet, gives it to the one who replied.
 */
export async function sendAgentMessage(ctx: Ctx, id: string, text: string, file?: ChatFile): Promise<ChatMessage> {
  const row = await lockSession(ctx, id);
  if (row.status !== "active") throw notActive();
  const message = await insertMessage(ctx, {
    sessionId: row.id,
    senderType: "agent",
    message: text,
    userId: ctx.userId,
    senderName: await memberFirstName(ctx),
  });
  const attachment = file ? await attachChatFile(ctx, row.id, message.id, file) : undefined;
  const now = new Date(message.created_at);
  await ctx.db
    .update(chatSessions)
    .set({
      lastMessage: preview(text),
      lastMessageAt: now,
      waitingForHuman: false,
      waitingSince: null,
      firstHumanReplyAt: row.firstHumanReplyAt ?? now,
      assignedAgentId: sql`coalesce(${chatSessions.assignedAgentId}, ${ctx.userId}::uuid)`,
    })
    .where(sessionOf(ctx, row.id));
  await ctx.emit("chat.message_added", { session_id: row.id, message_id: message.id, sender_type: "agent" });
  await announceChange(ctx, row.id);
  return attachment ? { ...message, attachment } : message;
}

/** An agent sends a file in a chat: a message of its own, named by the file (its text is the file's name). */
export function sendAgentFile(ctx: Ctx, id: string, filename: string, bytes: FileContent): Promise<ChatMessage> {
  return sendAgentMessage(ctx, id, safeFilename(filename), { filename, bytes });
}

/** Closes an active session. A session the assistant answered alone, with no hand-off, counts as resolved by it. */
export async function closeSession(ctx: Ctx, id: string): Promise<ChatSession> {
  const row = await lockSession(ctx, id);
  if (row.status !== "active") throw notActive();
  await ctx.db
    .update(chatSessions)
    .set({
      status: "closed",
      endedAt: new Date(),
      waitingForHuman: false,
      waitingSince: null,
      resolvedByAi: sql`${chatSessions.aiReplies} > 0 and ${chatSessions.handedOffAt} is null
                        and ${chatSessions.firstHumanReplyAt} is null`,
    })
    .where(sessionOf(ctx, row.id));
  return announceChange(ctx, row.id);
}

/** Take a session: it is assigned to the member who took it. */
export async function takeSession(ctx: Ctx, id: string): Promise<ChatSession> {
  const row = await lockSession(ctx, id);
  if (row.status !== "active") throw notActive();
  await ctx.db.update(chatSessions).set({ assignedAgentId: ctx.userId }).where(sessionOf(ctx, row.id));
  return announceChange(ctx, row.id);
}

/**
 * The four stat cards and the assistant's share. Closed Today follows the organization's time zone; Avg Response is
 * the average time from when a person was needed (the hand-off, else the start) to a person's first reply.
 */
export async function chatStats(ctx: Ctx): Promise<ChatStatsAnswer> {
  const [row] = await preparedRows<{
    active: number;
    closed_today: number;
    avg_seconds: number | null;
    total: number;
    by_ai: number;
    handed_off: number;
  }>(
    ctx.db,
    sql`select count(*) filter (where s.status = 'active')::int as active,
               count(*) filter (where s.ended_at >= (date_trunc('day', now() at time zone o.timezone)
                                                      at time zone o.timezone))::int as closed_today,
               (avg(extract(epoch from s.first_human_reply_at - coalesce(s.handed_off_at, s.started_at)))
                  filter (where s.first_human_reply_at is not null))::float8 as avg_seconds,
               count(*)::int as total,
               count(*) filter (where s.resolved_by_ai)::int as by_ai,
               count(*) filter (where s.handed_off_at is not null)::int as handed_off
        from chat_sessions s join organizations o on o.id = s.organization_id
        where s.organization_id = ${ctx.orgId}`,
  );
  return {
    active_chats: row?.active ?? 0,
    closed_today: row?.closed_today ?? 0,
    avg_response_seconds: row?.avg_seconds === null || row?.avg_seconds === undefined ? null : Number(row.avg_seconds),
    total_sessions: row?.total ?? 0,
    resolved_by_ai: row?.by_ai ?? 0,
    handed_off: row?.handed_off ?? 0,
  };
}
