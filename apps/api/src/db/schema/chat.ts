import type { AiSource } from "@cove/contract/ai.ts";
import { CHAT_SENDER_TYPES, CHAT_SESSION_STATUSES } from "@cove/contract/chat.ts";
import { CSAT_RATINGS } from "@cove/contract/csat.ts";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { aiAnswers } from "./ai.ts";
import { createdAt, refCascade, refSetNull, timestamptz } from "./columns.ts";
import { contacts } from "./contacts.ts";
import { tenantRow } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/**
 * A live chat (docs/product.md, "Records"): a visitor, who is a contact with a visitor session, talking to the assistant and then
 * to a person. The visitor's name and email are what they typed in the pre-chat form, unverified: they are kept on the
 * session, never used to find an existing contact (that would hand a stranger someone else's portal rows).
 */
export const chatSessions = pgTable(
  "chat_sessions",
  {
    ...tenantRow(),
    contactId: refCascade("contact_id", () => contacts.id).notNull(),
    visitorName: text("visitor_name").notNull(),
    visitorEmail: text("visitor_email"),
    status: text("status", { enum: CHAT_SESSION_STATUSES }).notNull().default("active"),
    /** The assistant handed off and no person has replied since. */
    waitingForHuman: boolean("waiting_for_human").notNull().default(false),
    waitingSince: timestamptz("waiting_since"),
    /** The first hand-off; stays set (the AI share counts it). */
    handedOffAt: timestamptz("handed_off_at"),
    assignedAgentId: refSetNull("assigned_agent_id", () => users.id),
    /** When a person first replied: the assistant is silent from then on, and Avg Response measures up to it. */
    firstHumanReplyAt: timestamptz("first_human_reply_at"),
    aiReplies: integer("ai_replies").notNull().default(0),
    /** Set at close: the assistant answered, never handed off, and no person replied. */
    resolvedByAi: boolean("resolved_by_ai").notNull().default(false),
    /** The ticket the conversation became (status transferred). */
    ticketId: refSetNull("ticket_id", () => tickets.id),
    lastMessage: text("last_message"),
    lastMessageAt: timestamptz("last_message_at"),
    startedAt: timestamptz("started_at").notNull().defaultNow(),
    endedAt: timestamptz("ended_at"),
    /** The visitor's answer to "How did we do?" once the chat ended (CSAT: the AI's half counts chats it resolved). */
    rating: text("rating", { enum: CSAT_RATINGS }),
    ratedAt: timestamptz("rated_at"),
  },
  (t) => [
    index("chat_sessions_org_status_idx").on(t.organizationId, t.status, t.lastMessageAt.desc()),
    index("chat_sessions_org_started_idx").on(t.organizationId, t.startedAt.desc()),
    index("chat_sessions_org_contact_idx").on(t.organizationId, t.contactId),
  ],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    ...tenantRow(),
    sessionId: refCascade("session_id", () => chatSessions.id).notNull(),
    senderType: text("sender_type", { enum: CHAT_SENDER_TYPES }).notNull(),
    /** The member who wrote an agent message. */
    userId: refSetNull("user_id", () => users.id),
    /** The agent's first name as the visitor sees it, kept with the message (the visitor may not read the team). */
    senderName: text("sender_name"),
    message: text("message").notNull(),
    /** Help-center articles an AI answer drew on. */
    sources: jsonb("sources").$type<AiSource[]>().notNull().default(sql`'[]'::jsonb`),
    /** An assistant's answer: its logged answer, which the visitor may rate (thumbs up or down). */
    aiAnswerId: refSetNull("ai_answer_id", () => aiAnswers.id),
    /** An assistant's answer: its Markdown rendered to sanitized HTML, which the widget shows (it has no renderer). */
    html: text("html"),
    createdAt: createdAt(),
  },
  (t) => [index("chat_messages_org_session_created_idx").on(t.organizationId, t.sessionId, t.createdAt)],
);
