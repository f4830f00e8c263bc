import {
  CHAT_DEFAULT_GREETING,
  CHAT_HANDOFF_NOTICE,
  CHAT_MESSAGE_PAGE,
  CHAT_VISITOR_DAYS,
  CHAT_VISITOR_MESSAGES,
  CHAT_VISITOR_WINDOW_SECONDS,
  type ChatMessage,
  type StartChatAnswer,
  type VisitorConversationAnswer,
  type VisitorSession,
} from "@cove/contract/chat.ts";
import type { CsatRating } from "@cove/contract/csat.ts";
import { ASSISTANT_ACTOR, type EventData } from "@cove/contract/events.ts";
import { and, eq, sql } from "drizzle-orm";
import { chatSessions } from "../../db/schema/chat.ts";
import type { RequestTx } from "../../platform/auth.ts";
import type { Db } from "../../platform/db.ts";
import { queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { chatMarkdownHtml } from "../../platform/markdown.ts";
import type { Metrics } from "../../platform/metrics.ts";
import { organizationAt } from "../../platform/organizations.ts";
import { type ContactCtx, type ContactPrincipal, type TenantCtx, withSystem } from "../../platform/tenancy.ts";
import type { AiProvider } from "../ai/index.ts";
import { answerQuestion, asksForPerson, savedGreeting, saveFeedback } from "../ai/index.ts";
import { type FileContent, safeFilename } from "../attachments/index.ts";
import { findContactCard, findOrCreateContact, startContactSession } from "../contacts/index.ts";
import {
  conversationTurns,
  insertMessage,
  preview,
  selectMessages,
  selectRateableAnswer,
  selectVisitorSession,
  sessionOf,
  toMessage,
} from "./chat.queries.ts";
import { attachChatFile, type ChatFile } from "./chat-files.ts";

const DAY = 86_400_000;
const SESSION = "Chat session";
/** How many earlier turns the assistant reads with a question. */
const TURNS_FOR_AI = 10;

export interface ChatDeps {
  db: Db;
  provider: AiProvider;
  /** Counts the assistant's answers (cove_ai_answers_total). */
  metrics?: Pick<Metrics, "aiAnswer">;
}

type HandoffReason = EventData<"chat.handed_off">["reason"];

async function greetingOf(ctx: Pick<TenantCtx, "orgId" | "db">): Promise<string> {
  return (await savedGreeting(ctx.db, ctx.orgId))?.trim() || CHAT_DEFAULT_GREETING;
}

/** Who starts a chat: a new visitor (what they typed), or a customer signed in to the portal, with its own token. */
type Starter =
  | { name?: string | undefined; email?: string | undefined }
  | { customer: ContactPrincipal; token: string };

/** The contact a chat belongs to and the token the widget keeps. */
async function chatContact(ctx: TenantCtx, who: Starter) {
  if ("customer" in who) {
    const c = await findContactCard(ctx.db, ctx.orgId, who.customer.contactId);
    if (!c) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
    return { contactId: who.customer.contactId, token: who.token, name: c.name, email: c.email };
  }
  const name = who.name?.trim() || "Visitor";
  const contactId = await findOrCreateContact(ctx, { name, email: null });
  const visitor = await startContactSession(ctx, contactId, "visitor", CHAT_VISITOR_DAYS * DAY);
  return { contactId, token: visitor.token, name, email: who.email || null };
}

/**
 * A visitor starts a chat: a new contact (the email typed is kept on the session, unverified, and never used to find
 * an existing contact, whose portal tickets a stranger would then read), a visitor session whose token the widget keeps,
 * and the session with the assistant's greeting. A portal customer chats as itself, with its portal token.
 */
export async function startChat(db: Db, orgSlug: string, who: Starter): Promise<StartChatAnswer> {
  const org = await organizationAt(db, orgSlug, "Portal");
  if ("customer" in who && who.customer.orgId !== org.id) throw notFound("Portal");
  return withSystem(db, org.id, "chat", async (ctx) => {
    const starter = await chatContact(ctx, who);
    const [row] = await ctx.db
      .insert(chatSessions)
      .values({
        organizationId: org.id,
        contactId: starter.contactId,
        visitorName: starter.name,
        visitorEmail: starter.email,
      })
      .returning({ id: chatSessions.id });
    if (!row) throw new Error("chat session insert returned nothing");
    const greeting = await insertMessage(ctx, { sessionId: row.id, senderType: "ai", message: await greetingOf(ctx) });
    await ctx.db
      .update(chatSessions)
      .set({ lastMessage: preview(greeting.message), lastMessageAt: new Date(greeting.created_at) })
      .where(sessionOf(ctx, row.id));
    await ctx.emit("chat.session_started", { session_id: row.id });
    const found = await selectVisitorSession(ctx, row.id);
    if (!found) throw new Error("chat session vanished");
    return { token: starter.token, session: found.session, messages: [greeting] };
  });
}

/** The visitor's organization must be the one in the address: another organization's visitor finds nothing there. */
async function visitorOrg(db: Db, who: ContactPrincipal, orgSlug: string): Promise<void> {
  const org = await organizationAt(db, orgSlug, "Portal");
  if (org.id !== who.orgId) throw notFound(SESSION);
}

/** The visitor's own session and its messages; anyone else's, malformed ids included, is not found. */
export async function readConversation(
  db: Db,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  orgSlug: string,
  id: string,
): Promise<VisitorConversationAnswer> {
  await visitorOrg(db, who, orgSlug);
  return tx(async (ctx) => {
    const found = await selectVisitorSession(ctx, recordId(SESSION, id));
    if (!found) throw notFound(SESSION);
    return { session: found.session, messages: await selectMessages(ctx.db, ctx.orgId, id, CHAT_MESSAGE_PAGE) };
  });
}

async function assertVisitorPace(ctx: ContactCtx): Promise<void> {
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from chat_messages m
        where m.organization_id = ${ctx.orgId} and m.sender_type = 'visitor'
          and m.session_id in (select id from chat_sessions where contact_id = ${ctx.contactId})
          and m.created_at > now() - make_interval(secs => ${CHAT_VISITOR_WINDOW_SECONDS})`,
  );
  if ((row?.n ?? 0) >= CHAT_VISITOR_MESSAGES) {
    throw new AppError("RATE_LIMITED", "You are sending messages too quickly. Please wait a few seconds.");
  }
}

/** Writes the visitor's message; says whether the assistant still answers in this session. */
async function writeVisitorMessage(tx: RequestTx<ContactCtx>, id: string, text: string, file?: ChatFile) {
  return tx(async (ctx) => {
    const found = await selectVisitorSession(ctx, recordId(SESSION, id));
    if (!found) throw notFound(SESSION);
    if (found.session.status !== "active") {
      throw new AppError("CONFLICT", "This chat has ended. Start a new chat to write to us again.");
    }
    await assertVisitorPace(ctx);
    const written = await insertMessage(ctx, { sessionId: id, senderType: "visitor", message: text });
    const message = file ? { ...written, attachment: await attachChatFile(ctx, id, written.id, file) } : written;
    await ctx.db
      .update(chatSessions)
      .set({ lastMessage: preview(text), lastMessageAt: new Date(message.created_at) })
      .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, id)));
    await ctx.emit("chat.message_added", { session_id: id, message_id: message.id, sender_type: "visitor" });
    // Once a person has the conversation (they replied, or it waits for one), the assistant stays out of it; it
    // never answers a file (there is no question in it to answer).
    const aiAnswers = !file && !found.humanReplied && !found.session.waiting_for_human;
    return { message, aiAnswers };
  });
}

interface AiTurn {
  response: string;
  sources: ChatMessage["sources"];
  handoff: HandoffReason | null;
  /** An answer (not a hand-off): its logged answer, which the visitor may rate. */
  answerId?: string | undefined;
  /** The answer's Markdown as sanitized HTML, for the widget. */
  html?: string | undefined;
}

/** The answer's HTML; if it cannot be rendered the widget shows the text as it is, which is still all there. */
async function answerHtml(response: string): Promise<string | undefined> {
  if (!response) return undefined;
  try {
    return await chatMarkdownHtml(response);
  } catch {
    return undefined;
  }
}

/** The assistant's answer; if it cannot answer at all, the session goes to a person rather than fail the visitor. */
async function askAssistant(deps: ChatDeps, orgId: string, id: string, text: string): Promise<AiTurn> {
  try {
    const conversation = await withSystem(deps.db, orgId, ASSISTANT_ACTOR.id, (ctx) =>
      conversationTurns(ctx.db, orgId, id, TURNS_FOR_AI + 1),
    );
    const answer = await answerQuestion(
      { db: deps.db, orgId, provider: deps.provider, channel: "chat", metrics: deps.metrics },
      { message: text, conversation: conversation.slice(0, -1) },
    );
    const reason: HandoffReason | null = !answer.handoff
      ? null
      : asksForPerson(text)
        ? "person_requested"
        : "low_confidence";
    return {
      response: answer.response,
      sources: answer.sources,
      handoff: reason,
      answerId: answer.handoff ? undefined : answer.answerId,
      html: await answerHtml(answer.response),
    };
  } catch {
    return { response: "", sources: [], handoff: "ai_unavailable" };
  }
}

/**
 * Records the assistant's turn, unless a person took the conversation meanwhile (their reply wins). A hand-off marks
 * the session waiting for a person, tells the visitor one will reply, and notifies the team (chat.handlers.ts).
 */
async function recordAssistantTurn(deps: ChatDeps, orgId: string, id: string, turn: AiTurn): Promise<ChatMessage[]> {
  return withSystem(deps.db, orgId, ASSISTANT_ACTOR.id, async (ctx) => {
    const [row] = await ctx.db
      .select({
        status: chatSessions.status,
        human: chatSessions.firstHumanReplyAt,
        waiting: chatSessions.waitingForHuman,
      })
      .from(chatSessions)
      .where(and(eq(chatSessions.organizationId, orgId), eq(chatSessions.id, id)))
      .for("update");
    if (row?.status !== "active" || row.human || row.waiting) return [];
    const added: ChatMessage[] = [];
    if (turn.response) {
      added.push(
        await insertMessage(ctx, {
          sessionId: id,
          senderType: "ai",
          message: turn.response,
          sources: turn.sources,
          ...(turn.answerId ? { aiAnswerId: turn.answerId } : {}),
          ...(turn.html !== undefined ? { html: turn.html } : {}),
        }),
      );
    }
    if (turn.handoff)
      added.push(await insertMessage(ctx, { sessionId: id, senderType: "system", message: CHAT_HANDOFF_NOTICE }));
    const last = added.at(-1);
    if (!last) return added;
    const at = new Date(last.created_at);
    await ctx.db
      .update(chatSessions)
      .set({
        lastMessage: preview(last.message),
        lastMessageAt: at,
        aiReplies: sql`${chatSessions.aiReplies} + ${turn.response ? 1 : 0}`,
        ...(turn.handoff
          ? { waitingForHuman: true, waitingSince: at, handedOffAt: sql`coalesce(${chatSessions.handedOffAt}, now())` }
          : {}),
      })
      .where(sessionOf(ctx, id));
    for (const m of added) {
      await ctx.emit("chat.message_added", { session_id: id, message_id: m.id, sender_type: m.sender_type });
    }
    if (turn.handoff) {
      await ctx.emit("chat.handed_off", { session_id: id, reason: turn.handoff });
      await ctx.emit("chat.session_changed", { session_id: id, status: "active", waiting_for_human: true });
    }
    return added;
  });
}

/**
 * A visitor's message, and the assistant's answer to it while the assistant still has the conversation. Answers the
 * messages added, the visitor's first.
 */
export async function sendVisitorMessage(
  deps: ChatDeps,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  input: { orgSlug: string; id: string; message: string },
): Promise<ChatMessage[]> {
  await visitorOrg(deps.db, who, input.orgSlug);
  const { message, aiAnswers } = await writeVisitorMessage(tx, input.id, input.message);
  if (!aiAnswers) return [message];
  const turn = await askAssistant(deps, who.orgId, input.id, input.message);
  return [message, ...(await recordAssistantTurn(deps, who.orgId, input.id, turn))];
}

/** A visitor sends a file in their chat: a message of its own, named by the file; the assistant does not answer it. */
export async function sendVisitorFile(
  db: Db,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  input: { orgSlug: string; id: string; filename: string; bytes: FileContent },
): Promise<ChatMessage> {
  await visitorOrg(db, who, input.orgSlug);
  const file = { filename: input.filename, bytes: input.bytes };
  return (await writeVisitorMessage(tx, input.id, safeFilename(input.filename), file)).message;
}

/**
 * The visitor's answer to "How did we do?" once the chat has ended (a later answer replaces an earlier one). It counts
 * in the dashboard's satisfaction: in the AI's half when the assistant resolved the chat alone.
 */
export async function rateChat(
  db: Db,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  input: { orgSlug: string; id: string; rating: CsatRating },
): Promise<VisitorSession> {
  await visitorOrg(db, who, input.orgSlug);
  return tx(async (ctx) => {
    const found = await selectVisitorSession(ctx, recordId(SESSION, input.id));
    if (!found) throw notFound(SESSION);
    if (found.session.status === "active") {
      throw new AppError("CONFLICT", "You can rate the chat once it has ended.");
    }
    await ctx.db
      .update(chatSessions)
      .set({ rating: input.rating, ratedAt: sql`now()` })
      .where(and(eq(chatSessions.organizationId, ctx.orgId), eq(chatSessions.id, input.id)));
    return { ...found.session, rating: input.rating };
  });
}

/**
 * The visitor's "Was this helpful?" on one of the assistant's answers in their own chat, during the chat or after it.
 * One rating per answer: a later one replaces it (as the test console's thumbs do). It is the answer's logged rating,
 * so it counts on the AI Assistant page exactly as a rating on /ai-test does (a thumbs down puts the question on the
 * list of questions the assistant could not answer), and a thumbs up makes the question a candidate example question of
 * the answer's article (chat.answer_rated). Another visitor's or organization's answer is not found.
 */
export async function rateAnswer(
  db: Db,
  who: ContactPrincipal,
  tx: RequestTx<ContactCtx>,
  input: { orgSlug: string; id: string; messageId: string; helpful: boolean },
): Promise<ChatMessage> {
  await visitorOrg(db, who, input.orgSlug);
  return tx(async (ctx) => {
    const found = await selectVisitorSession(ctx, recordId(SESSION, input.id));
    if (!found) throw notFound(SESSION);
    const answer = await selectRateableAnswer(ctx, input.id, recordId("Answer", input.messageId));
    if (!answer) throw notFound("Answer");
    const feedback = input.helpful ? "up" : "down";
    if (!(await saveFeedback(ctx.db, ctx.orgId, answer.aiAnswerId, feedback))) throw notFound("Answer");
    // A thumbs up teaches the assistant the question (ai/suggestions.ts), with the organization's rights.
    await ctx.emit("chat.answer_rated", {
      session_id: input.id,
      message_id: answer.id,
      answer_id: answer.aiAnswerId,
      helpful: input.helpful,
    });
    return toMessage(answer, feedback);
  });
}
