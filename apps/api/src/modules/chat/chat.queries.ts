import type { ChatMessage, ChatSenderType, ChatSession, VisitorSession } from "@cove/contract/chat.ts";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { chatMessages, chatSessions } from "../../db/schema/chat.ts";
import { users } from "../../db/schema/users.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { feedbackOf } from "../ai/index.ts";
import { filesOfChatMessages } from "../attachments/index.ts";
import { answerNodes } from "./answer-nodes.ts";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The columns of a session the agent's screen shows, with the assigned member's name. */
const sessionColumns = {
  id: chatSessions.id,
  visitorName: chatSessions.visitorName,
  visitorEmail: chatSessions.visitorEmail,
  status: chatSessions.status,
  startedAt: chatSessions.startedAt,
  endedAt: chatSessions.endedAt,
  lastMessage: chatSessions.lastMessage,
  lastMessageAt: chatSessions.lastMessageAt,
  waitingForHuman: chatSessions.waitingForHuman,
  waitingSince: chatSessions.waitingSince,
  handedOffAt: chatSessions.handedOffAt,
  resolvedByAi: chatSessions.resolvedByAi,
  ticketId: chatSessions.ticketId,
  agentId: users.id,
  agentFirst: users.firstName,
  agentLast: users.lastName,
};

type SessionRow = {
  [K in keyof typeof sessionColumns]: (typeof sessionColumns)[K]["_"]["data"] | null;
};

function toSession(r: SessionRow): ChatSession {
  return {
    id: r.id as string,
    visitor_name: r.visitorName ?? "",
    visitor_email: r.visitorEmail,
    status: r.status ?? "active",
    started_at: (r.startedAt as Date).toISOString(),
    ended_at: iso(r.endedAt),
    last_message: r.lastMessage,
    last_message_at: iso(r.lastMessageAt),
    waiting_for_human: r.waitingForHuman ?? false,
    waiting_since: iso(r.waitingSince),
    assigned_agent: r.agentId ? { id: r.agentId, name: `${r.agentFirst ?? ""} ${r.agentLast ?? ""}`.trim() } : null,
    handed_off: r.handedOffAt !== null,
    resolved_by_ai: r.resolvedByAi ?? false,
    ticket_id: r.ticketId,
  };
}

/** Staff: sessions of the organization, selected by where. */
export async function selectSessions(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  where: ReturnType<typeof eq> | undefined,
  limit: number,
): Promise<ChatSession[]> {
  const rows = await ctx.db
    .select(sessionColumns)
    .from(chatSessions)
    .leftJoin(users, eq(users.id, chatSessions.assignedAgentId))
    .where(and(eq(chatSessions.organizationId, ctx.orgId), where))
    .orderBy(desc(chatSessions.waitingForHuman), desc(chatSessions.lastMessageAt), desc(chatSessions.startedAt))
    .limit(limit);
  return rows.map(toSession);
}

/** The organization's session of that id: the filter of every statement on one session (CODE_STYLE.md, "Queries"). */
export const sessionOf = (ctx: Pick<TenantCtx, "orgId">, id: string) =>
  and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, id));

export async function selectSession(ctx: Pick<TenantCtx, "orgId" | "db">, id: string): Promise<ChatSession | null> {
  const [row] = await selectSessions(ctx, eq(chatSessions.id, id), 1);
  return row ?? null;
}

/** The visitor's view of a session: what the contact role may read of it (migration 0027). */
export async function selectVisitorSession(ctx: Pick<TenantCtx, "orgId" | "db">, id: string) {
  const [row] = await ctx.db
    .select({
      id: chatSessions.id,
      visitorName: chatSessions.visitorName,
      status: chatSessions.status,
      waitingForHuman: chatSessions.waitingForHuman,
      firstHumanReplyAt: chatSessions.firstHumanReplyAt,
      startedAt: chatSessions.startedAt,
      endedAt: chatSessions.endedAt,
      rating: chatSessions.rating,
    })
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, id)));
  if (!row) return null;
  const session: VisitorSession = {
    id: row.id,
    visitor_name: row.visitorName,
    status: row.status,
    waiting_for_human: row.waitingForHuman,
    started_at: row.startedAt.toISOString(),
    ended_at: iso(row.endedAt),
    rating: row.rating ?? null,
  };
  return { session, humanReplied: row.firstHumanReplyAt !== null };
}

const messageColumns = {
  id: chatMessages.id,
  senderType: chatMessages.senderType,
  senderName: chatMessages.senderName,
  message: chatMessages.message,
  sources: chatMessages.sources,
  aiAnswerId: chatMessages.aiAnswerId,
  html: chatMessages.html,
  createdAt: chatMessages.createdAt,
};

interface MessageRow {
  id: string;
  senderType: ChatSenderType;
  senderName: string | null;
  message: string;
  sources: ChatMessage["sources"];
  aiAnswerId: string | null;
  html: string | null;
  createdAt: Date;
}

/** A message as the API answers it; an answer that can be rated carries its thumbs (null: not rated). */
export const toMessage = (r: MessageRow, feedback: ChatMessage["feedback"] = null): ChatMessage => ({
  id: r.id,
  sender_type: r.senderType,
  sender_name: r.senderName,
  message: r.message,
  sources: r.sources,
  created_at: r.createdAt.toISOString(),
  // The widget builds the answer from its nodes (no HTML parsed on the customer's website); html stays for others.
  ...(r.html !== null ? { html: r.html, nodes: answerNodes(r.html) } : {}),
  ...(r.aiAnswerId !== null ? { feedback } : {}),
});

/**
 * A session's messages, oldest first (the newest `limit` of them), each with the file it carries, if any. For staff,
 * the assistant's answers also say whether a person marked them wrong (never shown to the visitor).
 */
export async function selectMessages(
  db: Queryable,
  orgId: string,
  sessionId: string,
  limit: number,
  reader: "staff" | "visitor" = "visitor",
) {
  const rows = await db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.organizationId, orgId), eq(chatMessages.sessionId, sessionId)))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
  const files = await filesOfChatMessages(
    db,
    orgId,
    rows.map((r) => r.id),
  );
  const answers = rows.flatMap((r) => (r.aiAnswerId ? [r.aiAnswerId] : []));
  const logged = await feedbackOf(db, orgId, answers, reader === "staff");
  return rows.reverse().map((r) => {
    const file = files.get(r.id);
    const answer = r.aiAnswerId ? logged.get(r.aiAnswerId) : undefined;
    const marked = reader === "staff" && r.aiAnswerId ? { marked_wrong: answer?.markedWrong ?? false } : {};
    return { ...toMessage(r, answer?.feedback ?? null), ...marked, ...(file ? { attachment: file } : {}) };
  });
}

/** One of the assistant's answers in a session that can be rated (it has a logged answer), or null. */
export async function selectRateableAnswer(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  sessionId: string,
  messageId: string,
): Promise<(MessageRow & { aiAnswerId: string }) | null> {
  const [row] = await ctx.db
    .select(messageColumns)
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.organizationId, ctx.orgId),
        eq(chatMessages.sessionId, sessionId),
        eq(chatMessages.id, messageId),
        eq(chatMessages.senderType, "ai"),
      ),
    );
  return row?.aiAnswerId ? { ...row, aiAnswerId: row.aiAnswerId } : null;
}

export interface NewChatMessage {
  sessionId: string;
  senderType: ChatSenderType;
  message: string;
  userId?: string;
  senderName?: string;
  sources?: ChatMessage["sources"];
  /** An assistant's answer: its logged answer (so the visitor can rate it) and its rendered HTML. */
  aiAnswerId?: string;
  html?: string;
}

export async function insertMessage(ctx: Pick<TenantCtx, "orgId" | "db">, m: NewChatMessage): Promise<ChatMessage> {
  const values = {
    organizationId: ctx.orgId,
    sessionId: m.sessionId,
    senderType: m.senderType,
    message: m.message,
    userId: m.userId ?? null,
    senderName: m.senderName ?? null,
    sources: m.sources ?? [],
    aiAnswerId: m.aiAnswerId ?? null,
    html: m.html ?? null,
    // The clock, not the transaction's start, and always after the session's latest message: messages written in one
    // transaction (an answer and the hand-off notice) keep the order they were written in, on the embedded database
    // too, whose clock counts whole milliseconds (two messages of one millisecond were ordered by their random ids).
    createdAt: sql`greatest(clock_timestamp(), (
      select max(${chatMessages.createdAt}) + interval '1 microsecond' from ${chatMessages}
      where ${chatMessages.organizationId} = ${ctx.orgId} and ${chatMessages.sessionId} = ${m.sessionId}))`,
  };
  const [row] = await ctx.db.insert(chatMessages).values(values).returning(messageColumns);
  if (!row) throw new Error("chat message insert returned nothing");
  return toMessage(row);
}

/** The conversation as the assistant reads it: visitor turns as the user's, AI turns as its own. */
export async function conversationTurns(db: Queryable, orgId: string, sessionId: string, limit: number) {
  const rows = await db
    .select({ senderType: chatMessages.senderType, message: chatMessages.message })
    .from(chatMessages)
    .where(and(eq(chatMessages.organizationId, orgId), eq(chatMessages.sessionId, sessionId)))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
  return rows
    .filter((r) => r.senderType === "visitor" || r.senderType === "ai")
    .slice(-limit)
    .map((r) => ({
      role: r.senderType === "visitor" ? ("user" as const) : ("assistant" as const),
      content: r.message,
    }));
}

/** One line for the session list: the message's first words. */
export const preview = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 200 ? line : `${line.slice(0, 199).trimEnd()}…`;
};

/**
 * The visitors' answers to "How did we do?" given in the last `days` days: those of chats the assistant resolved alone
 * (the AI's half of satisfaction), and those of chats a person handled.
 */
export async function chatRatings(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  days: number,
): Promise<Record<"ai" | "people", { good: number; bad: number }> & { asked: number }> {
  const since = sql`now() - ${days}::int * interval '1 day'`;
  const [row] = await queryRows<{
    asked: number;
    ai_good: number;
    ai_bad: number;
    people_good: number;
    people_bad: number;
  }>(
    ctx.db,
    sql`select count(*) filter (where ended_at > ${since})::int as asked,
               count(*) filter (where rated_at > ${since} and resolved_by_ai and rating = 'good')::int as ai_good,
               count(*) filter (where rated_at > ${since} and resolved_by_ai and rating = 'bad')::int as ai_bad,
               count(*) filter (where rated_at > ${since} and not resolved_by_ai and rating = 'good')::int as people_good,
               count(*) filter (where rated_at > ${since} and not resolved_by_ai and rating = 'bad')::int as people_bad
        from chat_sessions
        where organization_id = ${ctx.orgId} and (ended_at > ${since} or rated_at > ${since})`,
  );
  return {
    // Every chat that ended asked How did we do?, as every solved ticket's survey did.
    asked: row?.asked ?? 0,
    ai: { good: row?.ai_good ?? 0, bad: row?.ai_bad ?? 0 },
    people: { good: row?.people_good ?? 0, bad: row?.people_bad ?? 0 },
  };
}

/** A contact's newest live chats, for the contact's page (staff). */
export async function chatsOfContact(ctx: Pick<TenantCtx, "orgId" | "db">, contactId: string, limit = 20) {
  const rows = await ctx.db
    .select({
      id: chatSessions.id,
      status: chatSessions.status,
      startedAt: chatSessions.startedAt,
      lastMessage: chatSessions.lastMessage,
      resolvedByAi: chatSessions.resolvedByAi,
    })
    .from(chatSessions)
    .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.contactId, contactId)))
    .orderBy(desc(chatSessions.startedAt))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    started_at: r.startedAt.toISOString(),
    last_message: r.lastMessage,
    resolved_by_ai: r.resolvedByAi,
  }));
}

/**
 * A message of the session and what the visitor last wrote before it (the question it answers, when an agent wrote
 * it), among the session's newest 50 messages.
 */
export async function messageWithQuestion(
  db: Queryable,
  orgId: string,
  sessionId: string,
  messageId: string,
): Promise<{ message: ChatMessage; question: string | null } | null> {
  const messages = await selectMessages(db, orgId, sessionId, 50);
  const at = messages.findIndex((m) => m.id === messageId);
  const message = messages[at];
  if (!message) return null;
  const question = messages.slice(0, at).findLast((m) => m.sender_type === "visitor")?.message ?? null;
  return { message, question };
}

/** Whether any visitor has started a chat: the widget is on a website (the getting-started checklist). */
export async function anyChatStarted(db: Queryable, orgId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(eq(chatSessions.organizationId, orgId))
    .limit(1);
  return row !== undefined;
}
