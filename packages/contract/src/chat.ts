import { z } from "zod";
import { AI_FEEDBACK, aiSource, chatAnswerParams, wrongAnswerAnswer, wrongAnswerBody } from "./ai.ts";
import { attachmentSchema, uploadAttachmentQuery } from "./attachments.ts";
import { CSAT_RATINGS } from "./csat.ts";
import { textRequired } from "./messages.ts";
import { defineRoute } from "./routes.ts";

/**
 * Live chat (docs/product.md: "Screens", "Records", "States" and "API calls"): a visitor on the organization's own
 * website chats through the widget; the AI assistant answers first and hands off to a person, who answers in the same
 * conversation from /chat. The paths and fields the spec names are kept as they are.
 */

export const CHAT_SESSION_STATUSES = ["active", "closed", "transferred"] as const;
export type ChatSessionStatus = (typeof CHAT_SESSION_STATUSES)[number];

export const CHAT_SENDER_TYPES = ["visitor", "agent", "ai", "system"] as const;
export type ChatSenderType = (typeof CHAT_SENDER_TYPES)[number];

/** A chat message is at most this long (a visitor's and an agent's alike). */
export const CHAT_MESSAGE_MAX = 2000;
/** A visitor may send this many messages in CHAT_VISITOR_WINDOW_SECONDS (then 429). */
export const CHAT_VISITOR_MESSAGES = 10;
export const CHAT_VISITOR_WINDOW_SECONDS = 30;
/** Chats one address may start per hour, across organizations. */
export const CHAT_STARTS_PER_ADDRESS_PER_HOUR = 20;
/** A visitor's token lasts this many days (the conversation survives reloads and browser restarts meanwhile). */
export const CHAT_VISITOR_DAYS = 30;
/** The session list shows at most this many sessions: the active ones and the newest closed ones. */
export const CHAT_SESSION_LIST_MAX = 100;
/** A conversation shows at most this many messages, the newest ones. */
export const CHAT_MESSAGE_PAGE = 500;

/** What the visitor is told on a hand-off, as a system message in the conversation. */
export const CHAT_HANDOFF_NOTICE = "A person from our team will reply here shortly.";
/**
 * How long a visitor waits for a person before, when they left an email, the conversation becomes a ticket answered by
 * email, and what they are told then.
 */
export const CHAT_UNANSWERED_MINUTES = 5;
export const CHAT_NOBODY_FREE = "Nobody from our team is free right now.";
/**
 * The first line of every conversation, as the assistant, until the organization saves its own: the greeting the AI
 * Assistant page shows for a new organization (the column default of ai_settings.greeting, migration 0004).
 */
export const CHAT_DEFAULT_GREETING = "Hi! I'm the virtual assistant. How can I help you today?";

/** The text shown when a message cannot be sent (the spec's exact words). */
export const CHAT_SEND_FAILED = "Failed to send message - backend connection issue";
export const CHAT_CLOSE_FAILED = "Failed to close session - backend connection issue";
/** The alert after a close. */
export const CHAT_CLOSED_MESSAGE = "Chat session closed successfully.";

const noNul = (s: string) => !s.includes("\u0000");

export const chatMessageText = z
  .string({ error: textRequired("Message") })
  .trim()
  .min(1, "Message is required")
  .max(CHAT_MESSAGE_MAX, `Message must be at most ${CHAT_MESSAGE_MAX.toLocaleString("en-US")} characters`)
  .refine(noNul, "Message contains an invalid character");

/** A chat session, with what the agent's screen needs beyond it. */
export const chatSessionSchema = z.object({
  id: z.uuid(),
  visitor_name: z.string(),
  visitor_email: z.string().nullable(),
  status: z.enum(CHAT_SESSION_STATUSES),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  last_message: z.string().nullable(),
  last_message_at: z.string().nullable(),
  /** The assistant handed off and no person has replied since. */
  waiting_for_human: z.boolean(),
  waiting_since: z.string().nullable(),
  assigned_agent: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  handed_off: z.boolean(),
  resolved_by_ai: z.boolean(),
  /** The ticket the conversation became (status transferred). */
  ticket_id: z.uuid().nullable(),
});
export type ChatSession = z.infer<typeof chatSessionSchema>;

/** The elements an assistant's answer is made of (what the help center's Markdown renderer gives, after sanitizing). */
export const ANSWER_TAGS = [
  "p",
  "br",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "em",
  "s",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "img",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
] as const;
export type AnswerTag = (typeof ANSWER_TAGS)[number];

/**
 * One node of an assistant's answer, in document order: an element of ANSWER_TAGS or a text ("#text"), placed under
 * the node at index `parent` (-1: the answer itself). The chat widget builds the answer from these with createElement
 * and text nodes: no HTML string is ever parsed on the customer's website, so a host page's Trusted Types policy has
 * nothing to refuse. Links and pictures keep only web, mail and phone addresses.
 */
export const answerNodeSchema = z.object({
  parent: z.number().int(),
  tag: z.union([z.enum(ANSWER_TAGS), z.literal("#text")]),
  text: z.string().optional(),
  href: z.string().optional(),
  src: z.string().optional(),
  alt: z.string().optional(),
  title: z.string().optional(),
  start: z.number().int().optional(),
});
export type AnswerNode = z.infer<typeof answerNodeSchema>;

/** A chat message; sources are the help-center articles an AI answer drew on. */
export const chatMessageSchema = z.object({
  id: z.uuid(),
  sender_type: z.enum(CHAT_SENDER_TYPES),
  /** The agent's name for agent messages, else null. */
  sender_name: z.string().nullable(),
  message: z.string(),
  sources: z.array(aiSource),
  created_at: z.string(),
  /** A file sent as the message (its text is then the file's name); its bytes at chatFilePath / visitorChatFilePath. */
  attachment: attachmentSchema.optional(),
  /**
   * An assistant's answer: its Markdown (lists, tables, links) rendered to sanitized HTML by the help center's renderer,
   * for the chat widget, which has none. Every other message is plain text.
   */
  html: z.string().optional(),
  /** The same answer as a list of nodes, for the chat widget (see answerNodeSchema). Present whenever html is. */
  nodes: z.array(answerNodeSchema).optional(),
  /**
   * An answer the visitor may rate ("Was this helpful?"): their thumbs, null until they say. Absent on every other
   * message (greetings, notices, people's messages).
   */
  feedback: z.enum(AI_FEEDBACK).nullable().optional(),
  /** Staff only, on an answer the visitor may rate: whether a person marked it as a wrong answer ("Wrong answer"). */
  marked_wrong: z.boolean().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** Where a chat's file is served: to the organization's staff, and to the chat's visitor (with the visitor's token). */
export const chatFilePath = (sessionId: string, fileId: string) => `/api/chat/sessions/${sessionId}/files/${fileId}`;
export const visitorChatFilePath = (orgSlug: string, sessionId: string, fileId: string) =>
  `/api/public/${encodeURIComponent(orgSlug)}/chat/sessions/${sessionId}/files/${fileId}`;

export const chatSessionListAnswer = z.object({ sessions: z.array(chatSessionSchema) });
export type ChatSessionListAnswer = z.infer<typeof chatSessionListAnswer>;
export const chatSessionAnswer = z.object({ session: chatSessionSchema });
export const chatMessageListAnswer = z.object({ messages: z.array(chatMessageSchema) });
export type ChatMessageListAnswer = z.infer<typeof chatMessageListAnswer>;
export const chatMessageAnswer = z.object({ message: chatMessageSchema });

// Any id that is not one of the organization's (or the visitor's) sessions, malformed ones included, is not found.
export const chatIdParams = z.object({ id: z.string() });

/** POST /chat/sessions/{id}/messages (docs/product.md, "API calls"). */
export const sendChatMessageBody = z.object({ message: chatMessageText });
export type SendChatMessageBody = z.input<typeof sendChatMessageBody>;

/** PUT /chat/sessions/{id} (docs/product.md, "API calls"): only closing is a change an agent makes here. */
export const updateChatSessionBody = z.object({
  status: z.literal("closed", { error: "Status must be closed" }),
});
export const chatClosedAnswer = z.object({ message: z.string(), session: chatSessionSchema });

/** POST /chat/sessions/{id}/ticket: the conversation became this ticket. */
export const chatTicketAnswer = z.object({
  ticket_id: z.uuid(),
  ticket_number: z.number().int(),
  session: chatSessionSchema,
});
export type ChatTicketAnswer = z.infer<typeof chatTicketAnswer>;

/** The four stat cards (docs/product.md, "Screens"); avg_response_seconds is the real average time to a person's first reply. */
export const chatStatsAnswer = z.object({
  active_chats: z.number().int(),
  closed_today: z.number().int(),
  avg_response_seconds: z.number().nullable(),
  total_sessions: z.number().int(),
  /** Sessions the assistant resolved alone vs handed to a person (the AI Assistant page). */
  resolved_by_ai: z.number().int(),
  handed_off: z.number().int(),
});
export type ChatStatsAnswer = z.infer<typeof chatStatsAnswer>;

// The visitor's side (the widget): /api/public/{org-slug}/chat/...

const optionalText = (label: string, max: number) =>
  z
    .string({ error: textRequired(label) })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(noNul, `${label} contains an invalid character`)
    .optional();

export const startChatBody = z.object({
  name: optionalText("Name", 120),
  email: z
    .string({ error: textRequired("Email") })
    .trim()
    .max(254, "Email must be at most 254 characters")
    .pipe(z.union([z.literal(""), z.email("Enter a valid email address")]))
    .transform((e) => e.toLowerCase())
    .optional(),
});
export type StartChatBody = z.input<typeof startChatBody>;

/** What a visitor sees of its own session: no assignee, no internal figures. */
export const visitorSessionSchema = z.object({
  id: z.uuid(),
  visitor_name: z.string(),
  status: z.enum(CHAT_SESSION_STATUSES),
  waiting_for_human: z.boolean(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  /** The visitor's "How did we do?" once the chat ended; null until answered. */
  rating: z.enum(CSAT_RATINGS).nullable(),
});
export type VisitorSession = z.infer<typeof visitorSessionSchema>;

export const startChatAnswer = z.object({
  /** The visitor's token (a contact token): kept by the widget, sent as a bearer token. */
  token: z.string(),
  session: visitorSessionSchema,
  messages: z.array(chatMessageSchema),
});
export type StartChatAnswer = z.infer<typeof startChatAnswer>;

export const visitorConversationAnswer = z.object({
  session: visitorSessionSchema,
  messages: z.array(chatMessageSchema),
});
export type VisitorConversationAnswer = z.infer<typeof visitorConversationAnswer>;

/** The visitor's answer to "How did we do?", once the chat has ended. */
export const rateChatBody = z.object({
  rating: z.enum(CSAT_RATINGS, { error: "Choose good or bad" }),
});
export type RateChatBody = z.input<typeof rateChatBody>;

/** The visitor's "Was this helpful?" on one of the assistant's answers in their chat (a later one replaces it). */
export const rateAnswerBody = z.object({
  helpful: z.boolean({ error: "helpful must be true or false" }),
});
export type RateAnswerBody = z.input<typeof rateAnswerBody>;

/** What the widget shows before a chat: the organization's name, brand colour (#rrggbb) and logo (a path on Cove). */
export const widgetLookAnswer = z.object({
  name: z.string(),
  brand_color: z.string(),
  logo_url: z.string().nullable(),
});

export const visitorParams = z.object({ orgSlug: z.string().max(200), id: z.string() });
export const visitorMessageParams = visitorParams.extend({ messageId: z.string() });
export const visitorOrgParams = z.object({ orgSlug: z.string().max(200) });

/** Realtime topics: the organization's chats (staff) and one session (its staff and its visitor). */
export const CHAT_TOPIC = "chat";
export const chatSessionTopic = (id: string) => `chat_session:${id}`;

// Routes -------------------------------------------------------------------------------------------------------------

const fileAnswer = z.unknown().describe("The file's bytes");
const staffTags = ["live chat"];
const chatFileParams = chatIdParams.extend({ fileId: z.string() });

/** The agent's side of live chat (docs/product.md, "API calls" chat calls, and /chat's take and figures). */
export const chatApi = {
  sessions: defineRoute({
    method: "GET",
    path: "/api/chat/sessions",
    summary: "Chat sessions: waiting for a person first, then the most recent",
    tags: staffTags,
    access: "authenticated",
    answers: { 200: chatSessionListAnswer },
  }),
  stats: defineRoute({
    method: "GET",
    path: "/api/chat/stats",
    summary: "Active Chats, Closed Today, Avg Response (to a person's first reply), Total Sessions",
    tags: staffTags,
    access: "authenticated",
    answers: { 200: chatStatsAnswer },
  }),
  session: defineRoute({
    method: "GET",
    path: "/api/chat/sessions/:id",
    summary: "One chat session",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    answers: { 200: chatSessionAnswer },
  }),
  messages: defineRoute({
    method: "GET",
    path: "/api/chat/sessions/:id/messages",
    summary: "A session's messages, oldest first",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    answers: { 200: chatMessageListAnswer },
  }),
  send: defineRoute({
    method: "POST",
    path: "/api/chat/sessions/:id/messages",
    summary: "Send an agent message (the assistant stays silent in the session from then on)",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    body: sendChatMessageBody,
    answers: { 201: chatMessageAnswer },
    // The chat has ended.
    errors: ["CONFLICT"],
  }),
  sendFile: defineRoute({
    method: "POST",
    path: "/api/chat/sessions/:id/files",
    summary: "Send a file as an agent message (the body is the file, application/octet-stream)",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    query: uploadAttachmentQuery,
    answers: { 201: chatMessageAnswer },
    errors: ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "CONFLICT"],
  }),
  file: defineRoute({
    method: "GET",
    path: "/api/chat/sessions/:id/files/:fileId",
    summary: "A file of a chat: shown inline when a safe image, else a download",
    tags: staffTags,
    access: "authenticated",
    params: chatFileParams,
    answers: { 200: fileAnswer },
  }),
  close: defineRoute({
    method: "PUT",
    path: "/api/chat/sessions/:id",
    summary: "Close a session (status: closed)",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    body: updateChatSessionBody,
    answers: { 200: chatClosedAnswer },
    // The chat has ended already.
    errors: ["CONFLICT"],
  }),
  toTicket: defineRoute({
    method: "POST",
    path: "/api/chat/sessions/:id/ticket",
    summary: "Create a ticket from the conversation, with its transcript (the session becomes transferred)",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    answers: { 201: chatTicketAnswer },
    // The chat is a ticket already, or its visitor left no email address.
    errors: ["CONFLICT"],
  }),
  take: defineRoute({
    method: "POST",
    path: "/api/chat/sessions/:id/take",
    summary: "Take a session: it is assigned to you",
    tags: staffTags,
    access: "authenticated",
    params: chatIdParams,
    answers: { 200: chatSessionAnswer },
    // The chat has ended.
    errors: ["CONFLICT"],
  }),
  wrongAnswer: defineRoute({
    method: "POST",
    path: "/api/chat/sessions/:id/messages/:messageId/wrong-answer",
    summary: "Mark an assistant's answer in a live chat as wrong, naming the right article or none",
    description:
      "`{ article_id }`: a published article of the organization that answers the customer's question, which " +
      "becomes a suggested example question of it (added at once when the organization accepts automatically). " +
      "`{ not_covered: true }`: no article covers it. Either way the answer counts for the hand-off threshold as a " +
      "question that should have been handed off. Only an answer the assistant gave (one a visitor can rate) can " +
      "be marked; any other message, chat or article is not found.",
    tags: ["ai"],
    access: "authenticated",
    params: chatAnswerParams,
    body: wrongAnswerBody,
    answers: { 200: wrongAnswerAnswer },
  }),
};

const visitorTags = ["live chat (visitors)"];

/**
 * The visitor's side of live chat, called by the widget on the organization's own website
 * (docs/decisions/2026-11-25-live-chat.md): start a chat, read it, write in it. Past the start, the visitor's token
 * (a contact token) only: staff tokens are refused. The widget (apps/widget) writes these paths itself: the contract
 * would bring zod into the script every page of a customer's website loads, several times its size budget.
 */
export const chatPublicApi = {
  widget: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/chat/widget",
    summary: "What the widget shows from the start: the organization's name, brand colour and logo",
    tags: visitorTags,
    access: "public",
    params: visitorOrgParams,
    answers: { 200: widgetLookAnswer },
  }),
  start: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/chat/sessions",
    summary: "Start a chat (name and email optional): answers the visitor's token and the assistant's greeting",
    tags: visitorTags,
    access: "public",
    params: visitorOrgParams,
    body: startChatBody,
    answers: { 201: startChatAnswer },
    // A portal customer's token sent with it that is not valid (401), or is not a customer's (403).
    errors: ["UNAUTHORIZED", "FORBIDDEN"],
  }),
  conversation: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/chat/sessions/:id",
    summary: "Your chat and its messages",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorParams,
    answers: { 200: visitorConversationAnswer },
  }),
  send: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/chat/sessions/:id/messages",
    summary: "Write in your chat: answers your message and, while it has the chat, the assistant's reply",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorParams,
    body: sendChatMessageBody,
    answers: { 201: chatMessageListAnswer },
    // The chat has ended; the visitor writes faster than CHAT_VISITOR_MESSAGES in CHAT_VISITOR_WINDOW_SECONDS.
    errors: ["CONFLICT", "RATE_LIMITED"],
  }),
  sendFile: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/chat/sessions/:id/files",
    summary: "Send a file in your chat (the body is the file, application/octet-stream)",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorParams,
    query: uploadAttachmentQuery,
    answers: { 201: chatMessageAnswer },
    errors: ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "CONFLICT", "RATE_LIMITED"],
  }),
  file: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/chat/sessions/:id/files/:fileId",
    summary: "A file of your chat: shown inline when a safe image, else a download",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorParams.extend({ fileId: z.string() }),
    answers: { 200: fileAnswer },
  }),
  feedback: defineRoute({
    method: "PUT",
    path: "/api/public/:orgSlug/chat/sessions/:id/messages/:messageId/feedback",
    summary: "Was this helpful? on one of the assistant's answers in your chat (a later answer replaces it)",
    description:
      "helpful true is a thumbs up, false a thumbs down; it counts on the AI Assistant page as a rating on /ai-test " +
      "does. Only answers of the assistant in your own chat can be rated; anything else is not found.",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorMessageParams,
    body: rateAnswerBody,
    answers: { 200: chatMessageAnswer },
  }),
  rate: defineRoute({
    method: "PUT",
    path: "/api/public/:orgSlug/chat/sessions/:id/rating",
    summary: "Answer How did we do? once your chat has ended (good or bad)",
    tags: visitorTags,
    access: "authenticated",
    actors: ["contact"],
    params: visitorParams,
    body: rateChatBody,
    answers: { 200: z.object({ session: visitorSessionSchema }) },
    // The chat has not ended yet.
    errors: ["CONFLICT"],
  }),
};
