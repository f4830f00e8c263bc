import { CHAT_NOBODY_FREE, type ChatMessage, type ChatSession } from "@cove/contract/chat.ts";
import { and, eq, ne } from "drizzle-orm";
import { chatSessions } from "../../db/schema/chat.ts";
import { AppError } from "../../platform/errors.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { openTicket } from "../tickets/index.ts";
import { insertMessage, selectMessages, sessionOf } from "./chat.queries.ts";
import { getSession } from "./chat.service.ts";

const DESCRIPTION_MAX = 50_000;

const speaker = (m: ChatMessage, visitor: string) =>
  m.sender_type === "visitor"
    ? visitor
    : m.sender_type === "agent"
      ? (m.sender_name ?? "Agent")
      : m.sender_type === "ai"
        ? "AI assistant"
        : "Cove";

/** The conversation as a ticket's description: one line per message, with its time (UTC). */
export function transcript(session: Pick<ChatSession, "visitor_name" | "started_at">, messages: ChatMessage[]): string {
  const lines = messages.map(
    (m) => `[${m.created_at.slice(11, 16)}] ${speaker(m, session.visitor_name)}: ${m.message}`,
  );
  const text = `Live chat started ${session.started_at.slice(0, 16).replace("T", " ")} UTC\n\n${lines.join("\n")}`;
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

/**
 * Turns a conversation into a ticket with its transcript, for the visitor's email: the session becomes transferred
 * (ended), and the visitor is told in the chat. The ticket belongs to the visitor's contact, never to one found by the
 * typed email. The organization's row is locked first (the ticket number), then the session's (lock order).
 */
export async function chatToTicket(ctx: Ctx | TenantCtx, id: string, opts: { unanswered?: boolean } = {}) {
  const session = await getSession(ctx, id);
  if (session.status === "transferred") throw new AppError("CONFLICT", "This chat is already a ticket.");
  if (!session.visitor_email) {
    throw new AppError("CONFLICT", "This visitor left no email address, so a ticket could not reach them.");
  }
  const [owner] = await ctx.db
    .select({ contactId: chatSessions.contactId })
    .from(chatSessions)
    .where(sessionOf(ctx, session.id));
  const messages = await selectMessages(ctx.db, ctx.orgId, session.id, 10_000);
  const ticket = await openTicket(
    ctx,
    {
      subject: `Live chat with ${session.visitor_name}`.slice(0, 250),
      description: transcript(session, messages),
      priority: "normal",
      requester_name: session.visitor_name.slice(0, 120),
      requester_email: session.visitor_email,
      tags: ["live-chat"],
    },
    { source: "chat", contactId: owner?.contactId },
  );
  const [moved] = await ctx.db
    .update(chatSessions)
    .set({
      status: "transferred",
      ticketId: ticket.id,
      waitingForHuman: false,
      waitingSince: null,
      endedAt: new Date(),
    })
    .where(
      and(
        sessionOf(ctx, session.id),
        ne(chatSessions.status, "transferred"),
        // Nobody answered: only while it still waits (a person who replied meanwhile keeps the chat).
        opts.unanswered ? and(eq(chatSessions.status, "active"), eq(chatSessions.waitingForHuman, true)) : undefined,
      ),
    )
    .returning({ id: chatSessions.id });
  // A concurrent change got there first: this ticket is rolled back with the transaction.
  if (!moved) throw new AppError("CONFLICT", "This chat is already a ticket.");
  const becomes = `This conversation is now ticket #${ticket.ticketNumber}. We will reply to ${session.visitor_email} by email.`;
  const notice = await insertMessage(ctx, {
    sessionId: session.id,
    senderType: "system",
    message: opts.unanswered ? `${CHAT_NOBODY_FREE} ${becomes}` : becomes,
  });
  await ctx.emit("chat.message_added", { session_id: session.id, message_id: notice.id, sender_type: "system" });
  await ctx.emit("chat.session_changed", { session_id: session.id, status: "transferred", waiting_for_human: false });
  return { ticket_id: ticket.id, ticket_number: ticket.ticketNumber, session: await getSession(ctx, session.id) };
}
