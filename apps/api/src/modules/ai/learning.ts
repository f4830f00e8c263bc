import { AI_UNANSWERED_DAYS, type ReviewSuggestionsBody, type SuggestionsReviewedAnswer } from "@cove/contract/ai.ts";
import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { aiQuestionSuggestions } from "../../db/schema/ai.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { lockArticleQuestions, saveArticleQuestions } from "../kb/index.ts";
import { loadUnanswered, markReviewed } from "./ai.queries.ts";
import { applyIfAutomatic } from "./threshold.ts";
import { jaccard, keyTerms, sameWording } from "./unanswered.ts";

/**
 * Learning from the team (docs/product.md, "The assistant learns"; docs/decisions/2026-11-29-assistant-learns.md):
 * questions a person answered with an article become that article's example questions, which the assistant's index
 * reads like any other (index-cache.ts: only the new texts are encoded).
 */

/**
 * Two questions are near-duplicates when they have the same wording, or when at least this share of their content-word
 * stems is shared (Jaccard): "Parcels to canada" and "parcel to Canada?" are one question, "Do you ship to Iceland?"
 * and "Do you ship to Norway?" are two.
 */
export const NEAR_DUPLICATE = 0.75;

export function nearDuplicate(a: string, b: string): boolean {
  return sameWording(a, b) || jaccard(keyTerms(a), keyTerms(b)) >= NEAR_DUPLICATE;
}

/** What became of one question offered to an article. */
export type Learned = "added" | "duplicate" | "full";

export const fullArticle = (title: string) =>
  `"${title}" already has ${KB_QUESTIONS_MAX} example questions, the most an article can have: remove one in the article's editor, or dismiss this suggestion`;

/**
 * Adds questions to an article's example questions, in order, each unless it is a near-duplicate of the article's title,
 * of one of its questions, or of one added before it; at KB_QUESTIONS_MAX the rest are refused as "full" (nothing is
 * replaced: which question to drop is the team's choice). One write, and one kb.article_changed event, so the
 * assistant's index picks the new questions up on the next question.
 */
export async function learnQuestions(ctx: TenantCtx, articleId: string, questions: string[]) {
  const article = await lockArticleQuestions(ctx.db, ctx.orgId, articleId);
  if (!article) throw notFound("Article");
  const merged = [...article.questions];
  const outcomes: Learned[] = questions.map((q) => {
    if (nearDuplicate(article.title, q) || merged.some((m) => nearDuplicate(m, q))) return "duplicate";
    if (merged.length >= KB_QUESTIONS_MAX) return "full";
    merged.push(q);
    return "added";
  });
  if (merged.length > article.questions.length) {
    await saveArticleQuestions(ctx.db, ctx.orgId, articleId, merged);
    await ctx.emit("kb.article_changed", {
      article_id: articleId,
      change: "updated",
      published: article.status === "published",
    });
  }
  return { title: article.title, outcomes };
}

/**
 * The logged, not yet reviewed, unanswered questions with one of these wordings leave the "could not answer" list:
 * for the article they went to, or as not covered by any article (a label for the hand-off threshold, threshold.ts).
 */
export async function reviewUnanswered(
  ctx: TenantCtx,
  questions: string[],
  outcome: { articleId: string } | { notCovered: true },
): Promise<number> {
  const rows = await loadUnanswered(ctx.db, ctx.orgId, AI_UNANSWERED_DAYS);
  const ids = rows.filter((r) => questions.some((q) => sameWording(q, r.question))).map((r) => r.id);
  const reviewed = await markReviewed(ctx.db, ctx.orgId, ids, outcome);
  // New labels: with "adjust automatically" on, the threshold follows them.
  await applyIfAutomatic(ctx);
  return reviewed;
}

/**
 * A person says no article covers these questions: each wording must be one of the organization's unanswered questions
 * (not yet reviewed, of the last AI_UNANSWERED_DAYS days), or nothing is marked and the answer is 404, as for any
 * record of another organization or of nobody. The matching logged questions leave the list, labelled not covered.
 */
export async function markNotCovered(ctx: TenantCtx, questions: string[]): Promise<{ reviewed: number }> {
  const rows = await loadUnanswered(ctx.db, ctx.orgId, AI_UNANSWERED_DAYS);
  if (!questions.every((q) => rows.some((r) => sameWording(q, r.question)))) {
    throw notFound(questions.length === 1 ? "Unanswered question" : "Some unanswered question");
  }
  return { reviewed: await reviewUnanswered(ctx, questions, { notCovered: true }) };
}

type SuggestionState = "accepted" | "dismissed";

async function setStates(ctx: TenantCtx, ids: string[], state: SuggestionState) {
  if (ids.length === 0) return;
  await ctx.db
    .update(aiQuestionSuggestions)
    .set({ state, reviewedAt: sql`now()` })
    .where(and(eq(aiQuestionSuggestions.organizationId, ctx.orgId), inArray(aiQuestionSuggestions.id, ids)));
}

interface Pending {
  id: string;
  question: string;
  articleId: string;
}

/**
 * Accepts pending suggestions: each joins its article (learnQuestions), a near-duplicate is dismissed as such, and one
 * whose article is full stays pending with the reason. Accepted questions leave the unanswered list.
 */
export async function acceptPending(ctx: TenantCtx, pending: Pending[]) {
  const byArticle = new Map<string, Pending[]>();
  for (const p of pending) byArticle.set(p.articleId, [...(byArticle.get(p.articleId) ?? []), p]);
  const accepted: string[] = [];
  const duplicates: string[] = [];
  const kept: SuggestionsReviewedAnswer["kept"] = [];
  const titles = new Map<string, string>();
  for (const [articleId, rows] of byArticle) {
    const { title, outcomes } = await learnQuestions(
      ctx,
      articleId,
      rows.map((r) => r.question),
    );
    titles.set(articleId, title);
    rows.forEach((r, k) => {
      const outcome = outcomes[k];
      if (outcome === "added") accepted.push(r.id);
      else if (outcome === "duplicate") duplicates.push(r.id);
      else kept.push({ id: r.id, question: r.question, reason: fullArticle(title) });
    });
    const added = rows.filter((_, k) => outcomes[k] === "added").map((r) => r.question);
    if (added.length > 0) await reviewUnanswered(ctx, added, { articleId });
  }
  await setStates(ctx, accepted, "accepted");
  await setStates(ctx, duplicates, "dismissed");
  return { accepted, duplicates, kept, titles };
}

/** Pending suggestions of the organization with these ids; any other id (another organization's, reviewed) is 404. */
async function loadPending(ctx: TenantCtx, ids: string[]): Promise<Pending[]> {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select({
      id: aiQuestionSuggestions.id,
      question: aiQuestionSuggestions.question,
      articleId: aiQuestionSuggestions.articleId,
    })
    .from(aiQuestionSuggestions)
    .where(
      and(
        eq(aiQuestionSuggestions.organizationId, ctx.orgId),
        inArray(aiQuestionSuggestions.id, unique),
        eq(aiQuestionSuggestions.state, "pending"),
      ),
    )
    .for("update");
  if (rows.length !== unique.length) throw notFound(unique.length === 1 ? "Suggestion" : "Some suggestion");
  // In the order the admin chose them (the list's order): the first of two near-duplicates is the one kept.
  return unique.flatMap((id) => rows.filter((r) => r.id === id));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Accepts or dismisses several pending suggestions at once (all of them the organization's, or nothing is done). */
export async function reviewSuggestions(
  ctx: TenantCtx,
  input: { ids: string[]; action: ReviewSuggestionsBody["action"] },
): Promise<SuggestionsReviewedAnswer> {
  const pending = await loadPending(ctx, input.ids);
  if (input.action === "dismiss") {
    await setStates(
      ctx,
      pending.map((p) => p.id),
      "dismissed",
    );
    const message = `${plural(pending.length, "suggestion", "suggestions")} dismissed.`;
    return { accepted: 0, duplicates: 0, dismissed: pending.length, kept: [], message };
  }
  const { accepted, duplicates, kept } = await acceptPending(ctx, pending);
  const parts = [`${plural(accepted.length, "question", "questions")} added to their articles`];
  if (duplicates.length > 0) parts.push(`${plural(duplicates.length, "near-duplicate", "near-duplicates")} skipped`);
  if (kept.length > 0) parts.push(`${kept.length} kept for later: their article is full`);
  return {
    accepted: accepted.length,
    duplicates: duplicates.length,
    dismissed: 0,
    kept,
    message: `${parts.join(", ")}.`,
  };
}

/** Accepts one suggestion, with a sentence saying what became of it; an article at its limit is a 400. */
export async function acceptOne(ctx: TenantCtx, id: string): Promise<{ message: string }> {
  const [suggestion] = await loadPending(ctx, [id]);
  if (!suggestion) throw notFound("Suggestion");
  const { accepted, kept, titles } = await acceptPending(ctx, [suggestion]);
  const title = titles.get(suggestion.articleId) ?? "";
  if (kept[0]) throw new AppError("BAD_REQUEST", kept[0].reason);
  if (accepted.length === 0) {
    return { message: `"${title}" already has a question like "${suggestion.question}": nothing was added.` };
  }
  return { message: `"${suggestion.question}" is now an example question of "${title}".` };
}
