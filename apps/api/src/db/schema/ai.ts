import { AI_CHANNELS, AI_FEEDBACK, AI_TONES, SUGGESTION_SOURCES, SUGGESTION_STATES } from "@cove/contract/ai.ts";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, real, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea, createdAt, refCascade, refSetNull, timestamptz, updatedAt } from "./columns.ts";
import { kbArticles } from "./kb.ts";
import { organizationId, tenantRow } from "./organizations.ts";

/** Each organization's assistant: one row, created with defaults on first use. */
export const aiSettings = pgTable("ai_settings", {
  organizationId: organizationId().primaryKey(),
  enabled: boolean("enabled").notNull().default(true),
  /** Below this confidence (0..1) the assistant hands off to a person. */
  handoffThreshold: real("handoff_threshold").notNull().default(0.5),
  greeting: text("greeting").notNull().default("Hi! I'm the virtual assistant. How can I help you today?"),
  tone: text("tone", { enum: AI_TONES }).notNull().default("friendly"),
  /** Suggested example questions join their article without an admin's review (docs/product.md, "Learning"). */
  learnAutomatically: boolean("learn_automatically").notNull().default(false),
  /** The share of answerable questions the admin accepts to see handed off, for the proposed threshold. */
  falseHandoffTarget: real("false_handoff_target").notNull().default(0.1),
  /** The proposed threshold is applied on its own once enough questions are labelled. */
  thresholdAutomatic: boolean("threshold_automatic").notNull().default(false),
  updatedAt: updatedAt(),
});

/** Every answer the assistant gave, so its resolution rate is measured, not claimed. */
export const aiAnswers = pgTable(
  "ai_answers",
  {
    ...tenantRow(),
    /** Where the question came from: the staff test console, the public demo, live chat, the portal. */
    channel: text("channel", { enum: AI_CHANNELS }).notNull(),
    question: text("question").notNull(),
    confidence: real("confidence").notNull(),
    handoff: boolean("handoff").notNull(),
    provider: text("provider").notNull(),
    sourceArticleIds: uuid("source_article_ids").array().notNull().default(sql`'{}'::uuid[]`),
    latencyMs: integer("latency_ms").notNull(),
    /** Thumbs up or down from whoever asked (the widget, the test console, /ai-test); null until they say. */
    feedback: text("feedback", { enum: AI_FEEDBACK }),
    /**
     * When the team dealt with an unanswered question: attached it to an article as an example question, or started
     * a new article from it. Reviewed questions leave the "could not answer" list.
     */
    reviewedAt: timestamptz("reviewed_at"),
    reviewedArticleId: refSetNull("reviewed_article_id", () => kbArticles.id),
    /** A person said no article covers this question: a label for the organization's hand-off threshold. */
    notCovered: boolean("not_covered").notNull().default(false),
    /**
     * A person marked the answer wrong (from the live chat): the assistant should have handed it off at its confidence,
     * a label for the threshold. The right article is reviewed_article_id, or not_covered when none covers it.
     */
    markedWrong: boolean("marked_wrong").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("ai_answers_org_created_idx").on(t.organizationId, t.createdAt)],
);

/**
 * Example questions the team suggested without meaning to: a customer's question that an agent answered with a link to
 * a help-center article. An admin accepts one (it joins the article's questions) or dismisses it; either way it is
 * not suggested again.
 */
export const aiQuestionSuggestions = pgTable(
  "ai_question_suggestions",
  {
    ...tenantRow(),
    articleId: refCascade("article_id", () => kbArticles.id).notNull(),
    question: text("question").notNull(),
    source: text("source", { enum: SUGGESTION_SOURCES }).notNull(),
    /** The chat session or the ticket where the agent answered. */
    sourceId: uuid("source_id").notNull(),
    state: text("state", { enum: SUGGESTION_STATES }).notNull().default("pending"),
    createdAt: createdAt(),
    reviewedAt: timestamptz("reviewed_at"),
  },
  (t) => [
    uniqueIndex("ai_question_suggestions_once").on(t.organizationId, t.articleId, sql`lower(${t.question})`),
    index("ai_question_suggestions_pending_idx").on(t.organizationId, t.state, t.createdAt),
  ],
);

/**
 * The sentence encoder's vector of each text of an organization's knowledge base (a title, a passage, an example
 * question), so that after a restart, or on another instance, an index reads its vectors instead of encoding them
 * again. Keyed by a hash of the encoder's name and the text; a vector is its 512 components as signed bytes.
 */
export const aiSentenceVectors = pgTable(
  "ai_sentence_vectors",
  {
    organizationId: organizationId(),
    key: text("key").notNull(),
    vector: bytea("vector").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.key] })],
);
