import { z } from "zod";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import { KB_QUESTION_MAX, KB_QUESTIONS_MAX, KB_TITLE_MAX } from "./kb.ts";
import { textRequired } from "./messages.ts";
import { defineRoute, idParams } from "./routes.ts";

export const AI_TONES = ["friendly", "professional", "concise"] as const;
export type AiTone = (typeof AI_TONES)[number];

export const AI_MESSAGE_MAX = 2000;
export const AI_CONVERSATION_MAX = 20;
export const AI_GREETING_MAX = 500;
/** The resolution rate looks back this many days. */
export const AI_STATS_DAYS = 30;

const noNul = (s: string) => !s.includes("\u0000");

const message = z
  .string({ error: textRequired("Message") })
  .trim()
  .min(1, "Message is required")
  .max(AI_MESSAGE_MAX, `Message must be at most ${AI_MESSAGE_MAX.toLocaleString("en-US")} characters`)
  .refine(noNul, "Message contains an invalid character");

export const conversationTurn = z.object({
  role: z.enum(["user", "assistant"], { error: "A turn's role must be user or assistant" }),
  content: z
    .string({ error: "A turn needs its content" })
    .max(AI_MESSAGE_MAX, `A turn must be at most ${AI_MESSAGE_MAX.toLocaleString("en-US")} characters`),
});
export type ConversationTurn = z.infer<typeof conversationTurn>;

/** POST /api/chat/ai-response (docs/product.md, "API calls"): the message, the customer's plan, and optionally the turns before. */
export const aiResponseBody = z.object({
  message,
  customerInfo: z
    .object({ plan: z.string().trim().max(60, "Plan must be at most 60 characters").optional() })
    .optional(),
  conversation: z
    .array(conversationTurn, { error: "Conversation must be a list of turns" })
    .max(AI_CONVERSATION_MAX, `Send at most ${AI_CONVERSATION_MAX} earlier turns`)
    .optional(),
});
export type AiResponseBody = z.input<typeof aiResponseBody>;

export const aiSource = z.object({ id: z.uuid(), title: z.string(), url: z.string() });
export type AiSource = z.infer<typeof aiSource>;

export const aiResponseAnswer = z.object({
  response: z.string(),
  /** 0..1: the estimated probability that the answer is right (calibrated on held-out questions). */
  confidence: z.number().min(0).max(1),
  suggestedActions: z.array(z.string()),
  sources: z.array(aiSource),
  handoff: z.boolean(),
  /** The logged answer, for thumbs up / down (POST /api/chat/ai-feedback); absent when nothing was logged. */
  answerId: z.uuid().optional(),
});
export type AiResponseAnswer = z.infer<typeof aiResponseAnswer>;

/** Where a question to the assistant came from: the staff test console, the public demo, live chat, the portal, the API. */
export const AI_CHANNELS = ["console", "demo", "chat", "portal", "api"] as const;
export type AiChannel = (typeof AI_CHANNELS)[number];
/** A logged answer's thumbs. */
export const AI_FEEDBACK = ["up", "down"] as const;
export type AiFeedback = (typeof AI_FEEDBACK)[number];

/** POST /api/chat/ai-feedback: whether an answer helped. */
export const aiFeedbackBody = z.object({
  answerId: z.uuid({ error: "answerId must be the id of an answer" }),
  helpful: z.boolean({ error: "helpful must be true or false" }),
});
export type AiFeedbackBody = z.input<typeof aiFeedbackBody>;
export const aiFeedbackAnswer = z.object({ message: z.string() });

/** Questions the assistant could not answer look back this many days. */
export const AI_UNANSWERED_DAYS = 30;

/** A group of unanswered questions that ask the same thing, most asked first. */
export const unansweredGroup = z.object({
  /** The wording asked most often (the latest among equals). */
  question: z.string(),
  /** How many times questions of the group were asked. */
  count: z.number().int(),
  /** The group's distinct wordings, most asked first (at most KB_QUESTIONS_MAX). */
  questions: z.array(z.string()),
  last_asked_at: z.string(),
  /** How many of them were handed off (the rest were answered with low confidence or a thumbs down). */
  handed_off: z.number().int(),
  /** The closest published article, to attach the questions to, or null when nothing is close. */
  suggested_article: z.object({ id: z.uuid(), title: z.string() }).nullable(),
});
export type UnansweredGroup = z.infer<typeof unansweredGroup>;
export const aiUnansweredAnswer = z.object({ days: z.number().int(), groups: z.array(unansweredGroup) });
export type AiUnansweredAnswer = z.infer<typeof aiUnansweredAnswer>;

const unansweredQuestions = z
  .array(
    z
      .string({ error: "Each question must be text" })
      .trim()
      .min(1, "A question is required")
      .max(KB_QUESTION_MAX, `A question must be at most ${KB_QUESTION_MAX} characters`)
      .refine(noNul, "A question contains an invalid character"),
    { error: "Questions must be a list" },
  )
  .min(1, "Choose at least one question")
  .max(KB_QUESTIONS_MAX, `Send at most ${KB_QUESTIONS_MAX} questions`);

/** POST /api/ai/unanswered/attach: these questions become example questions of an existing article. */
export const attachUnansweredBody = z.object({
  article_id: z.uuid({ error: "Choose an article" }),
  questions: unansweredQuestions,
});
export type AttachUnansweredBody = z.input<typeof attachUnansweredBody>;

/** POST /api/ai/unanswered/new-article: a draft article whose example questions are these. */
export const newArticleFromUnansweredBody = z.object({
  title: z
    .string({ error: "Title must be text" })
    .trim()
    .min(1, "Title is required")
    .max(KB_TITLE_MAX, `Title must be at most ${KB_TITLE_MAX} characters`),
  questions: unansweredQuestions,
});
export type NewArticleFromUnansweredBody = z.input<typeof newArticleFromUnansweredBody>;

export const unansweredReviewedAnswer = z.object({
  article: z.object({ id: z.uuid(), title: z.string() }),
  /** How many logged questions left the list. */
  reviewed: z.number().int(),
});
export type UnansweredReviewedAnswer = z.infer<typeof unansweredReviewedAnswer>;

export const aiSettings = z.object({
  enabled: z.boolean(),
  handoff_threshold: z.number(),
  greeting: z.string(),
  tone: z.enum(AI_TONES),
  /** Questions the team answered with an article join it at once, without an admin's review (docs/product.md). */
  learn_automatically: z.boolean(),
  /** The proposed hand-off threshold is applied on its own once enough questions are labelled (docs/product.md). */
  threshold_automatic: z.boolean(),
  updated_at: z.string().nullable(),
});
export type AiSettings = z.infer<typeof aiSettings>;
export const aiSettingsAnswer = z.object({ settings: aiSettings });
export type AiSettingsAnswer = z.infer<typeof aiSettingsAnswer>;

export const aiGreeting = z
  .string({ error: "Greeting must be text" })
  .trim()
  .min(1, "Greeting is required")
  .max(AI_GREETING_MAX, `Greeting must be at most ${AI_GREETING_MAX} characters`)
  .refine(noNul, "Greeting contains an invalid character");

export const updateAiSettingsBody = z
  .object({
    enabled: z.boolean({ error: "Enabled must be true or false" }).optional(),
    handoff_threshold: z
      .number({ error: "The hand-off threshold must be a number" })
      .min(0, "The hand-off threshold must be between 0 and 1")
      .max(1, "The hand-off threshold must be between 0 and 1")
      .optional(),
    greeting: aiGreeting.optional(),
    tone: z.enum(AI_TONES, { error: `Tone must be one of ${AI_TONES.join(", ")}` }).optional(),
    learn_automatically: z.boolean({ error: "Accept automatically must be true or false" }).optional(),
    threshold_automatic: z.boolean({ error: "Adjust automatically must be true or false" }).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Change at least one setting");
export type UpdateAiSettingsBody = z.input<typeof updateAiSettingsBody>;

/**
 * The measured resolution rate: answers to customers (every channel but the staff test console) not handed off, over
 * the last AI_STATS_DAYS days.
 */
export const aiStatsAnswer = z.object({
  days: z.number().int(),
  answers: z.number().int(),
  resolved: z.number().int(),
  handed_off: z.number().int(),
  /** resolved / answers, or null before the first answer. */
  resolution_rate: z.number().nullable(),
  average_confidence: z.number().nullable(),
  /** Questions asked in the test console over the same days, not part of the rate. */
  console_answers: z.number().int(),
  /** Customers' answers rated with a thumbs up / down over the same days (every channel but the console). */
  rated_helpful: z.number().int(),
  rated_unhelpful: z.number().int(),
});
export type AiStatsAnswer = z.infer<typeof aiStatsAnswer>;

/**
 * Where a suggested example question came from: an agent's reply that linked the article (in a live chat, on a ticket),
 * or a visitor's thumbs up on the assistant's answer drawn from the article in a live chat ("rated").
 */
export const SUGGESTION_SOURCES = ["chat", "ticket", "rated"] as const;
export const SUGGESTION_STATES = ["pending", "accepted", "dismissed"] as const;

/**
 * A question an agent answered by linking a help-center article, or a visitor rated the answer drawn from it helpful:
 * suggested as one of that article's example questions
 * (GET /api/ai/suggestions), for an admin to accept or dismiss.
 */
export const questionSuggestion = z.object({
  id: z.uuid(),
  question: z.string(),
  source: z.enum(SUGGESTION_SOURCES),
  /** The article, with how many example questions it has (at most KB_QUESTIONS_MAX: a full one takes no more). */
  article: z.object({ id: z.uuid(), title: z.string(), questions: z.number().int() }),
  created_at: z.string(),
});
export type QuestionSuggestion = z.infer<typeof questionSuggestion>;
export const questionSuggestionsAnswer = z.object({ suggestions: z.array(questionSuggestion) });
export type QuestionSuggestionsAnswer = z.infer<typeof questionSuggestionsAnswer>;
export const suggestionReviewedAnswer = z.object({ message: z.string() });
/** The pending suggestions shown at most (newest first). */
export const SUGGESTIONS_SHOWN = 50;

export const SUGGESTION_ACTIONS = ["accept", "dismiss"] as const;

/** POST /api/ai/suggestions/review: accept or dismiss several pending suggestions at once. */
export const reviewSuggestionsBody = z.object({
  ids: z
    .array(z.uuid({ error: "Each suggestion id must be an id from the list" }), { error: "Ids must be a list" })
    .min(1, "Choose at least one suggestion")
    .max(SUGGESTIONS_SHOWN, `Choose at most ${SUGGESTIONS_SHOWN} suggestions`),
  action: z.enum(SUGGESTION_ACTIONS, { error: `Action must be one of ${SUGGESTION_ACTIONS.join(", ")}` }),
});
export type ReviewSuggestionsBody = z.input<typeof reviewSuggestionsBody>;

/**
 * What a review did: accepted (now example questions), dismissed, and left pending with the reason (their article is
 * full); near-duplicates of a question the article already has are dismissed and counted apart.
 */
export const suggestionsReviewedAnswer = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  dismissed: z.number().int(),
  kept: z.array(z.object({ id: z.uuid(), question: z.string(), reason: z.string() })),
  message: z.string(),
});
export type SuggestionsReviewedAnswer = z.infer<typeof suggestionsReviewedAnswer>;

/** POST /api/ai/unanswered/not-covered: a person says no article covers these questions (docs/product.md). */
export const notCoveredBody = z.object({ questions: unansweredQuestions });
export type NotCoveredBody = z.input<typeof notCoveredBody>;
export const notCoveredAnswer = z.object({ reviewed: z.number().int() });

/**
 * POST /api/chat/sessions/{id}/messages/{messageId}/wrong-answer: a person says the assistant's answer in a live chat
 * was wrong, and names the published article that answers the customer's question, or says none does.
 */
export const wrongAnswerBody = z
  .object({
    article_id: z.uuid({ error: "Choose one of your published articles" }).optional(),
    not_covered: z.literal(true, { error: "not_covered must be true" }).optional(),
  })
  .refine(
    (b) => (b.article_id === undefined) !== (b.not_covered === undefined),
    "Choose the article that answers the question, or say that no article covers it (one of the two)",
  );
export type WrongAnswerBody = z.output<typeof wrongAnswerBody>;
/** Any text: an id that is not one of the organization's chats and answers, malformed ones included, is not found. */
export const chatAnswerParams = z.object({ id: z.string(), messageId: z.string() });
export const wrongAnswerAnswer = z.object({
  /** What became of the customer's question (suggested, added, already there, not covered), in a sentence. */
  message: z.string(),
});
export type WrongAnswerAnswer = z.infer<typeof wrongAnswerAnswer>;

/** The share of answerable questions an admin may accept to see handed off, as a fraction. */
const falseHandoffTarget = z.coerce
  .number({ error: "The target must be a number between 0.01 and 0.5" })
  .min(0.01, "The target must be a number between 0.01 and 0.5")
  .max(0.5, "The target must be a number between 0.01 and 0.5");

/** GET /api/ai/threshold: the proposal for this target (default: the one last applied, 0.1 at first). */
export const thresholdQuery = z.object({ target: falseHandoffTarget.optional() });
/** POST /api/ai/threshold/apply: apply the proposal for this target. */
export const applyThresholdBody = z.object({ target: falseHandoffTarget });
export type ApplyThresholdBody = z.input<typeof applyThresholdBody>;

/** What a threshold does on the organization's labelled questions: the shares of each kind handed off. */
export const thresholdPoint = z.object({
  threshold: z.number(),
  answerable_handed_off: z.number(),
  /** Null when no question is marked not covered. */
  uncovered_handed_off: z.number().nullable(),
  /** Of the answers a person marked wrong (they should have been handed off); null when none is. */
  wrong_handed_off: z.number().nullable(),
});

export const thresholdProposal = z.object({
  target: z.number(),
  current: z.number(),
  automatic: z.boolean(),
  labelled: z.object({ answerable: z.number().int(), uncovered: z.number().int(), wrong: z.number().int() }),
  /** Answerable labelled questions needed before a threshold is proposed. */
  minimum: z.number().int(),
  /** Labelled questions needed before "adjust automatically" applies one. */
  automatic_from: z.number().int(),
  /** Null with too little history: the threshold stays as it is. */
  proposed: z.number().nullable(),
  at_proposed: thresholdPoint.nullable(),
  at_current: thresholdPoint,
  curve: z.array(thresholdPoint),
  message: z.string(),
});
export type ThresholdProposal = z.infer<typeof thresholdProposal>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["ai"];
/**
 * A question or a rating of the public assistant: a staff token is optional, but a bad one is refused (401) and so is
 * a customer's (403); without one, a server with no demo organization has nothing to answer from (404).
 */
const askErrors = ["UNAUTHORIZED", "FORBIDDEN", "DEMO_UNAVAILABLE"] as const;

/** The assistant: asking and rating it (the console and the public demo), its unanswered questions, settings, stats. */
export const aiApi = {
  ask: defineRoute({
    method: "POST",
    path: "/api/chat/ai-response",
    summary: "Ask the AI assistant",
    description:
      "With a staff bearer token the assistant answers from that organization's published articles (the test " +
      "console); without one, from the demo organization's (the public /ai-test page), rate-limited per address.",
    tags,
    access: "public",
    body: aiResponseBody,
    answers: { 200: aiResponseAnswer },
    errors: askErrors,
  }),
  feedback: defineRoute({
    method: "POST",
    path: "/api/chat/ai-feedback",
    summary: "Say whether an answer of the assistant helped",
    description:
      "Thumbs up or down on an answer (its answerId). With a staff bearer token, an answer of that organization; " +
      "without one, an answer of the public demo (/ai-test). A thumbs down puts the question on the team's " +
      "unanswered list. Answers in a live chat are rated by its visitor, in the chat.",
    tags,
    access: "public",
    body: aiFeedbackBody,
    answers: { 200: aiFeedbackAnswer },
    errors: [...askErrors, "NOT_FOUND"],
  }),
  unanswered: defineRoute({
    method: "GET",
    path: "/api/ai/unanswered",
    summary: "Questions the assistant could not answer in the last 30 days, grouped",
    tags,
    access: "authenticated",
    answers: { 200: aiUnansweredAnswer },
  }),
  attachUnanswered: defineRoute({
    method: "POST",
    path: "/api/ai/unanswered/attach",
    summary: "Attach unanswered questions to an article as example questions (administrators)",
    tags,
    access: "admin",
    body: attachUnansweredBody,
    answers: { 200: unansweredReviewedAnswer },
  }),
  newArticle: defineRoute({
    method: "POST",
    path: "/api/ai/unanswered/new-article",
    summary: "Start a draft article from unanswered questions (administrators)",
    tags,
    access: "admin",
    body: newArticleFromUnansweredBody,
    answers: { 201: unansweredReviewedAnswer },
  }),
  settings: defineRoute({
    method: "GET",
    path: "/api/ai/settings",
    summary: "The assistant's settings",
    tags,
    access: "authenticated",
    answers: { 200: aiSettingsAnswer },
  }),
  updateSettings: defineRoute({
    method: "PUT",
    path: "/api/ai/settings",
    summary: "Change the assistant's settings (administrators)",
    tags,
    access: "admin",
    body: updateAiSettingsBody,
    answers: { 200: aiSettingsAnswer },
  }),
  stats: defineRoute({
    method: "GET",
    path: "/api/ai/stats",
    summary: "Measured resolution rate over the last 30 days",
    tags,
    access: "authenticated",
    answers: { 200: aiStatsAnswer },
  }),
};

/**
 * The assistant learning each organization (docs/product.md, "The assistant learns"): suggested example questions
 * and their review, questions no article covers, and the organization's own hand-off threshold.
 */
export const learningApi = {
  notCovered: defineRoute({
    method: "POST",
    path: "/api/ai/unanswered/not-covered",
    summary: "Say that no article covers these unanswered questions (administrators)",
    description:
      "They leave the list and count as questions the assistant should hand off (the threshold's history). Each " +
      "must be one of the organization's unanswered questions, or nothing is marked (404).",
    tags,
    access: "admin",
    body: notCoveredBody,
    answers: { 200: notCoveredAnswer },
  }),
  suggestions: defineRoute({
    method: "GET",
    path: "/api/ai/suggestions",
    summary: "Example questions suggested by agents' replies that linked an article",
    tags,
    access: "authenticated",
    answers: { 200: questionSuggestionsAnswer },
  }),
  acceptSuggestion: defineRoute({
    method: "POST",
    path: "/api/ai/suggestions/:id/accept",
    summary: "Add a suggested question to its article's example questions (administrators)",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: suggestionReviewedAnswer },
  }),
  reviewSuggestions: defineRoute({
    method: "POST",
    path: "/api/ai/suggestions/review",
    summary: "Accept or dismiss several suggested questions at once (administrators)",
    description:
      "Every id must be a pending suggestion of the organization, or nothing is done (404). Accepting skips a " +
      "near-duplicate of a question its article already has (it is dismissed) and keeps pending one whose article " +
      "is full (KB_QUESTIONS_MAX example questions), saying so.",
    tags,
    access: "admin",
    body: reviewSuggestionsBody,
    answers: { 200: suggestionsReviewedAnswer },
  }),
  dismissSuggestion: defineRoute({
    method: "POST",
    path: "/api/ai/suggestions/:id/dismiss",
    summary: "Dismiss a suggested question (administrators)",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: suggestionReviewedAnswer },
  }),
  threshold: defineRoute({
    method: "GET",
    path: "/api/ai/threshold",
    summary: "The hand-off threshold proposed from the organization's labelled questions, with its trade-off",
    description:
      "The highest threshold that hands off at most `target` of the questions an article covered (default: the " +
      "target last applied), with the shares of answerable and uncovered questions each threshold hands off. " +
      "With too little history `proposed` is null and the message says so.",
    tags,
    access: "authenticated",
    query: thresholdQuery,
    answers: { 200: thresholdProposal },
  }),
  applyThreshold: defineRoute({
    method: "POST",
    path: "/api/ai/threshold/apply",
    summary: "Apply the proposed hand-off threshold for a target (administrators)",
    tags,
    access: "admin",
    body: applyThresholdBody,
    answers: { 200: thresholdProposal },
  }),
};
