import type { AiChannel } from "@cove/contract/ai.ts";
import {
  AI_STATS_DAYS,
  AI_UNANSWERED_DAYS,
  type AiResponseAnswer,
  type AiSettings,
  type AiStatsAnswer,
  type AiUnansweredAnswer,
  type aiFeedbackBody,
  type aiResponseBody,
  type attachUnansweredBody,
  type newArticleFromUnansweredBody,
  type UnansweredReviewedAnswer,
  type updateAiSettingsBody,
} from "@cove/contract/ai.ts";
import { ASSISTANT_ACTOR } from "@cove/contract/events.ts";
import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import type { z } from "zod";
import type { Db } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Metrics } from "../../platform/metrics.ts";
import { type Ctx, withSystem, withVisitor } from "../../platform/tenancy.ts";
import { createArticle, getArticle, publishedArticles, updateArticle } from "../kb/index.ts";
import {
  answerCounts,
  loadAssistantState,
  loadSentenceVectors,
  loadUnanswered,
  logAnswer,
  saveFeedback,
  saveSentenceVectors,
  saveSettings,
} from "./ai.queries.ts";
import { findCandidates, type Readings, readingsOf } from "./candidates.ts";
import { asksForPerson } from "./handoff-request.ts";
import { indexEncoded, organizationIndex, sentencesReady } from "./index-cache.ts";
import { reviewSuggestions, reviewUnanswered } from "./learning.ts";
import { type AiProvider, type Draft, handoffDraft, REPLIES } from "./provider.ts";
import type { SearchIndex } from "./retrieval.ts";
import { encoderWaitMs, encodeTexts, questionWaitMs, within } from "./sentence-encoder.ts";
import type { VectorStore } from "./sentences.ts";
import { groupQuestions, sameWording } from "./unanswered.ts";

export type Channel = AiChannel;
type Question = z.output<typeof aiResponseBody>;

/**
 * Who is asking, through what. Unlike other services this one holds the database rather than a transaction: it
 * opens its own tenant transactions around the provider call (see answerQuestion).
 */
export interface AskCtx {
  db: Db;
  orgId: string;
  provider: AiProvider;
  channel: Channel;
  /** Counts each answer as answered or handed off (cove_ai_answers_total). */
  metrics?: Pick<Metrics, "aiAnswer">;
}

const toAnswer = (d: Draft, answerId?: string): AiResponseAnswer => ({
  response: d.response,
  confidence: d.confidence,
  suggestedActions: d.suggestedActions,
  sources: d.sources,
  handoff: d.handoff,
  ...(answerId ? { answerId } : {}),
});

/**
 * Answers a customer's question from the organization's published articles. Retrieval runs in one short tenant
 * transaction; the provider (which may call a remote model for seconds) runs outside any transaction, so it never
 * holds a database connection; the answer is then logged in a second one. A switched-off assistant hands off at
 * once and logs nothing: it answered nothing, so it does not count against the resolution rate.
 */
export async function answerQuestion(ctx: AskCtx, question: Question): Promise<AiResponseAnswer> {
  const { db, orgId, provider, channel } = ctx;
  const started = performance.now();
  // The question's sentence vectors are computed on the encoder's thread while the transaction reads the index.
  const reading = startReading(readingsOf(question.message, question.conversation), "question");
  // withVisitor: the same RLS confinement as a signed-in request, for the public demo and the console alike.
  const { state, index } = await withVisitor(db, orgId, async ({ db: tx }) => {
    const state = await loadAssistantState(tx, orgId);
    if (!state) throw notFound("Organization");
    if (!state.enabled) return { state, index: null };
    return {
      state,
      index: await organizationIndex(
        orgId,
        state.articlesStamp,
        () => publishedArticles(tx, orgId),
        vectorStore(db, orgId),
      ),
    };
  });
  if (!state.enabled || !index) {
    ctx.metrics?.aiAnswer("handed_off");
    return toAnswer(handoffDraft(REPLIES.disabled, 0, "disabled"));
  }
  // Outside the transaction: no connection is held while the encoder works.
  const readings = await reading(index);
  const candidates = findCandidates(index, state.orgSlug, question.message, question.conversation, readings);

  let draft: Draft;
  if (asksForPerson(question.message)) {
    // Certain of what the customer wants; a confident article still goes along as reading for the wait.
    const related = candidates.filter((c) => c.confidence >= state.handoffThreshold);
    draft = handoffDraft(REPLIES.personRequested, 1, "handoff-request", related);
  } else {
    draft = await provider.answer({
      question: question.message,
      conversation: question.conversation ?? [],
      plan: question.customerInfo?.plan,
      tone: state.tone,
      threshold: state.handoffThreshold,
      candidates,
    });
  }
  const answerId = await withVisitor(db, orgId, ({ db: tx }) =>
    logAnswer(tx, {
      organizationId: orgId,
      channel,
      question: question.message,
      confidence: draft.confidence,
      handoff: draft.handoff,
      provider: draft.provider,
      sourceArticleIds: draft.sources.map((s) => s.id),
      latencyMs: Math.round(performance.now() - started),
    }),
  );
  ctx.metrics?.aiAnswer(draft.handoff ? "handed_off" : "answered");
  return toAnswer(draft, answerId);
}

/**
 * Builds the organization's index and gives it its sentence vectors (read back, or encoded) before anyone asks: at
 * start, for the demo organization, so that the first question on /ai-test is read with the encoder. Resolves how
 * many texts were encoded (null when the assistant is off or the encoder unavailable).
 */
export async function prepareAssistant(db: Db, orgId: string): Promise<number | null> {
  const index = await withVisitor(db, orgId, async ({ db: tx }) => {
    const state = await loadAssistantState(tx, orgId);
    if (!state?.enabled) return null;
    return organizationIndex(orgId, state.articlesStamp, () => publishedArticles(tx, orgId), vectorStore(db, orgId));
  });
  return index ? indexEncoded(orgId) : null;
}

/**
 * The organization's stored sentence vectors, read and written in transactions of their own, after the request's:
 * the index's encoding runs in the background, and must never hold (or wait inside) a request's connection.
 */
const vectorStore = (db: Db, orgId: string): VectorStore => ({
  load: () => withVisitor(db, orgId, ({ db: tx }) => loadSentenceVectors(tx, orgId)),
  save: (added, stale) =>
    withSystem(db, orgId, ASSISTANT_ACTOR.id, ({ db: tx }) => saveSentenceVectors(tx, orgId, added, stale)),
});

/**
 * Starts encoding the texts at once, on the encoder's thread, and gives a function that waits for them (up to
 * questionWaitMs from now) and takes the index's sentence vectors as they are: a unit not encoded yet is read from
 * its words, and so are the texts when their own vectors are late, rather than keeping anyone waiting
 * (AI_ENCODER_WAIT_MS, set by tests and benchmarks only, waits that long for the index's too).
 */
function startReading(texts: string[], priority: "question" | "index"): (index: SearchIndex) => Promise<Readings> {
  const started = performance.now();
  const deadline = started + questionWaitMs();
  const encoding = encodeTexts(texts, priority);
  return async (index) => {
    await sentencesReady(index, started + encoderWaitMs() - performance.now(), deadline - performance.now());
    const encoded = await within(encoding, deadline - performance.now(), null);
    const out = new Map<string, Float32Array | null>();
    // Only vectors of the encoder that made the index's are compared with them (the other may have stood in).
    if (!encoded || encoded.encoder !== index.sentences?.encoder) return out;
    const d = encoded.dimensions;
    texts.forEach((text, k) => {
      out.set(text, encoded.rows.slice(k * d, (k + 1) * d));
    });
    return out;
  };
}

/**
 * Thumbs up or down on an answer, by whoever asked; an answer of another organization is not found, and so is one of
 * another channel than `channel` when it is given (a signed-out visitor of /ai-test rates the demo's answers, never an
 * answer given in someone's chat: those are rated in the chat, by its visitor).
 */
export async function recordAnswerFeedback(
  db: Db,
  orgId: string,
  input: z.output<typeof aiFeedbackBody>,
  channel?: Channel,
): Promise<{ message: string }> {
  const found = await withVisitor(db, orgId, ({ db: tx }) =>
    saveFeedback(tx, orgId, input.answerId, input.helpful ? "up" : "down", channel),
  );
  if (!found) throw notFound("Answer");
  return { message: "Thanks for the feedback" };
}

/**
 * The questions the assistant could not answer in the last 30 days, grouped when they ask the same thing, with the
 * organization's index to find each group's closest article in (`withClosestArticles`, after the transaction). `db`
 * is the database, not the request's transaction: for the index's stored sentence vectors.
 */
export async function unansweredQuestions(ctx: Ctx, db: Db) {
  const rows = await loadUnanswered(ctx.db, ctx.orgId, AI_UNANSWERED_DAYS);
  const groups = groupQuestions(rows);
  const state = await loadAssistantState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  const index =
    groups.length > 0
      ? await organizationIndex(
          ctx.orgId,
          state.articlesStamp,
          () => publishedArticles(ctx.db, ctx.orgId),
          vectorStore(db, ctx.orgId),
        )
      : null;
  return { groups, index, orgSlug: state.orgSlug };
}

/**
 * Each group with the published article closest to it (to attach its questions to), if any: found as the question
 * would be answered, within the same wait as a question (then from words), outside any transaction, so no
 * connection is held while the encoder works. It is a suggestion: the list must not keep an admin waiting.
 */
export async function withClosestArticles({
  groups,
  index,
  orgSlug,
}: Awaited<ReturnType<typeof unansweredQuestions>>): Promise<AiUnansweredAnswer> {
  const readings: Readings = index
    ? await startReading(
        groups.map((g) => g.question),
        "index",
      )(index)
    : new Map();
  return {
    days: AI_UNANSWERED_DAYS,
    groups: groups.map((g) => {
      const [closest] = index ? findCandidates(index, orgSlug, g.question, [], readings) : [];
      return {
        question: g.question,
        count: g.count,
        questions: g.questions,
        last_asked_at: g.lastAskedAt.toISOString(),
        handed_off: g.handedOff,
        suggested_article: closest && closest.score > 0 ? { id: closest.id, title: closest.title } : null,
      };
    }),
  };
}

/**
 * A group's questions become example questions of an existing article (its alternative phrasings), so the next
 * customer who asks that way gets it. Another organization's article is not found.
 */
export async function attachUnanswered(
  ctx: Ctx,
  input: z.output<typeof attachUnansweredBody>,
): Promise<UnansweredReviewedAnswer> {
  const article = await getArticle(ctx, input.article_id);
  const merged = [...article.questions];
  for (const q of input.questions) if (!merged.some((m) => sameWording(m, q))) merged.push(q);
  if (merged.length > KB_QUESTIONS_MAX) {
    throw new AppError(
      "BAD_REQUEST",
      `"${article.title}" has ${article.questions.length} example questions and can have at most ${KB_QUESTIONS_MAX}: remove some in the article's editor first, or attach fewer`,
    );
  }
  if (merged.length > article.questions.length) await updateArticle(ctx, article.id, { questions: merged });
  const reviewed = await reviewUnanswered(ctx, input.questions, { articleId: article.id });
  return { article: { id: article.id, title: article.title }, reviewed };
}

/** A person says no article covers these questions: they leave the list, labelled for the threshold (threshold.ts). */

export async function dismissSuggestion(ctx: Ctx, id: string): Promise<{ message: string }> {
  await reviewSuggestions(ctx, { ids: [id], action: "dismiss" });
  return { message: "Suggestion dismissed." };
}

/** A draft article whose example questions are the group's, for the team to write and publish. */
export async function newArticleFromUnanswered(
  ctx: Ctx,
  input: z.output<typeof newArticleFromUnansweredBody>,
): Promise<UnansweredReviewedAnswer> {
  const article = await createArticle(ctx, {
    title: input.title,
    body: "",
    category_id: null,
    questions: input.questions,
    status: "draft",
  });
  const reviewed = await reviewUnanswered(ctx, input.questions, { articleId: article.id });
  return { article: { id: article.id, title: article.title }, reviewed };
}

export async function getSettings(ctx: Ctx): Promise<AiSettings> {
  const state = await loadAssistantState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  return {
    enabled: state.enabled,
    handoff_threshold: state.handoffThreshold,
    greeting: state.greeting,
    tone: state.tone,
    learn_automatically: state.learnAutomatically,
    threshold_automatic: state.thresholdAutomatic,
    updated_at: state.settingsUpdatedAt?.toISOString() ?? null,
  };
}

export async function updateSettings(ctx: Ctx, input: z.output<typeof updateAiSettingsBody>): Promise<AiSettings> {
  await saveSettings(ctx.db, ctx.orgId, {
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(input.handoff_threshold !== undefined ? { handoffThreshold: input.handoff_threshold } : {}),
    ...(input.greeting !== undefined ? { greeting: input.greeting } : {}),
    ...(input.tone !== undefined ? { tone: input.tone } : {}),
    ...(input.learn_automatically !== undefined ? { learnAutomatically: input.learn_automatically } : {}),
    ...(input.threshold_automatic !== undefined ? { thresholdAutomatic: input.threshold_automatic } : {}),
  });
  return getSettings(ctx);
}

export async function answerStats(ctx: Ctx): Promise<AiStatsAnswer> {
  const counts = await answerCounts(ctx.db, ctx.orgId, AI_STATS_DAYS);
  return {
    days: AI_STATS_DAYS,
    answers: counts.answers,
    resolved: counts.resolved,
    handed_off: counts.answers - counts.resolved,
    resolution_rate: counts.answers > 0 ? counts.resolved / counts.answers : null,
    average_confidence: counts.average_confidence,
    console_answers: counts.console_answers,
    rated_helpful: counts.rated_helpful,
    rated_unhelpful: counts.rated_unhelpful,
  };
}
