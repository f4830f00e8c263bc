import {
  type QuestionSuggestion,
  type QuestionSuggestionsAnswer,
  type SUGGESTION_SOURCES,
  SUGGESTIONS_SHOWN,
} from "@cove/contract/ai.ts";
import { ASSISTANT_ACTOR, type DomainEvent } from "@cove/contract/events.ts";
import { helpCenterPath, KB_QUESTION_MAX } from "@cove/contract/kb.ts";
import { and, desc, eq } from "drizzle-orm";
import { aiQuestionSuggestions, aiSettings } from "../../db/schema/ai.ts";
import { organizations } from "../../db/schema/organizations.ts";
import type { EventBus, EventContext } from "../../platform/events.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { articleQuestionCounts, findPublished } from "../kb/index.ts";
import { findComment, findTicketRow } from "../tickets/index.ts";
import { ratedAnswer } from "./ai.queries.ts";
import { acceptPending, nearDuplicate } from "./learning.ts";

/**
 * Learning from the team: when an agent answers a customer (a public reply on a ticket, a message in a live chat) with
 * a link to one of the organization's published help-center articles, the customer's question (the ticket's subject,
 * or what the visitor last wrote) is suggested as an example question of that article; so is a chat visitor's question
 * whose answer from an article they rated helpful. An admin accepts it with one click on the AI Assistant page, and
 * the assistant then finds that article for questions worded like it.
 */
export function registerSuggestionHandlers(bus: EventBus): void {
  bus.onInTransaction(["comment.added"], fromTicketReply);
  bus.onInTransaction(["chat.answer_rated"], fromRating);
}

type Source = (typeof SUGGESTION_SOURCES)[number];

async function fromTicketReply(ctx: EventContext, event: DomainEvent<"comment.added">) {
  if (!event.data.is_public || event.actor.kind !== "staff") return;
  // One comment read per staff reply; the rest only when it links an article.
  const body = (await findComment(ctx.db, ctx.orgId, event.data.comment_id))?.body;
  if (!body?.includes("/articles/")) return;
  const ticket = await findTicketRow(ctx.db, ctx.orgId, event.data.ticket_id);
  if (!ticket) return;
  await suggestFromAnswer(ctx, body, ticket.subject, "ticket", ticket.id);
}

/**
 * A visitor's thumbs up on the assistant's answer in a live chat: the question they asked becomes a candidate example
 * question of the article the answer was drawn from (source "rated"), through the same path as a person's answer. Only
 * a visitor's rating of an answer (not a hand-off) drawn from exactly one article; the staff console's and the public
 * demo's thumbs never come here. A thumbs down (or a thumbs up changed to down) withdraws the candidate that answer's
 * thumbs up left pending; one already accepted stays (docs/decisions/2026-11-30-thumbs-up-teaches.md).
 */
async function fromRating(ctx: EventContext, event: DomainEvent<"chat.answer_rated">) {
  if (event.actor.kind !== "contact") return;
  if (!event.data.helpful) {
    await withdrawRated(ctx, event.data.answer_id);
    return;
  }
  const answer = await ratedAnswer(ctx.db, ctx.orgId, event.data.answer_id);
  if (answer?.channel !== "chat" || answer.handoff || answer.sourceArticleIds.length !== 1) return;
  const [articleId] = answer.sourceArticleIds;
  const question = answer.question.replace(/\s+/g, " ").trim();
  if (!articleId || question.length < 3 || question.length > KB_QUESTION_MAX) return;
  const article = await findPublished(ctx.db, ctx.orgId, { id: articleId });
  if (!article) return;
  const learn = await learnsAutomatically(ctx);
  await suggestQuestion(
    ctx,
    article,
    { question, source: "rated", sourceId: answer.id },
    learn ? ctx.asSystem(ASSISTANT_ACTOR.id) : null,
  );
}

/** Drops the pending candidate a thumbs up on this logged answer left (none when it was reviewed or never made). */
async function withdrawRated(ctx: Pick<TenantCtx, "db" | "orgId">, answerId: string) {
  await ctx.db
    .delete(aiQuestionSuggestions)
    .where(
      and(
        eq(aiQuestionSuggestions.organizationId, ctx.orgId),
        eq(aiQuestionSuggestions.source, "rated"),
        eq(aiQuestionSuggestions.sourceId, answerId),
        eq(aiQuestionSuggestions.state, "pending"),
      ),
    );
}

/** The slugs of the organization's help-center articles linked in a text (a full address or a path). */
export function linkedArticleSlugs(text: string, orgSlug: string): string[] {
  const prefix = `${helpCenterPath(orgSlug)}/articles/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const slugs = new Set<string>();
  for (const match of text.matchAll(new RegExp(`${prefix}([^\\s/?#)\\]>"']+)`, "g"))) {
    try {
      // A sentence's full stop or comma after the address is not part of it.
      slugs.add(decodeURIComponent((match[1] ?? "").replace(/[.,;:!?]+$/, "")));
    } catch {
      // A malformed escape in a pasted address is not a link to an article.
    }
  }
  return [...slugs].filter(Boolean).slice(0, 3);
}

/**
 * A person's answer (a ticket reply, a chat message) to a customer's question: each published article it links gets
 * the question as a suggestion (or, when the organization accepts automatically, as an example question at once).
 */
export async function suggestFromAnswer(
  ctx: EventContext,
  answer: string,
  asked: string,
  source: Source,
  sourceId: string,
) {
  const question = asked.replace(/\s+/g, " ").trim();
  if (question.length < 3 || question.length > KB_QUESTION_MAX) return;
  const org = await learningOf(ctx);
  if (!org) return;
  for (const slug of linkedArticleSlugs(answer, org.slug)) {
    const article = await findPublished(ctx.db, ctx.orgId, { slug });
    if (!article) continue;
    // "Accept automatically": the question joins its article now, as Cove's own change.
    await suggestQuestion(
      ctx,
      article,
      { question, source, sourceId },
      org.learn ? ctx.asSystem(ASSISTANT_ACTOR.id) : null,
    );
  }
}

async function learningOf(ctx: Pick<TenantCtx, "db" | "orgId">) {
  const [org] = await ctx.db
    .select({ slug: organizations.slug, learn: aiSettings.learnAutomatically })
    .from(organizations)
    .leftJoin(aiSettings, eq(aiSettings.organizationId, organizations.id))
    .where(eq(organizations.id, ctx.orgId));
  return org ? { slug: org.slug, learn: org.learn ?? false } : null;
}

/** What became of a question offered to an article as a candidate. */
export type Suggested = "suggested" | "added" | "full" | "duplicate";

/**
 * The candidate path: the question becomes a pending suggestion of the article, unless it is a near-duplicate of the
 * article's title, of one of its example questions or of a pending suggestion for it, or was suggested for it before
 * (whatever became of it: the unique index keeps repeats out). With `acceptAs` (the organization accepts
 * automatically) it joins the article at once; at the article's limit it stays pending for an admin (learning.ts).
 */
export async function suggestQuestion(
  ctx: Pick<TenantCtx, "db" | "orgId">,
  article: { id: string; title: string; questions: string[] },
  from: { question: string; source: Source; sourceId: string },
  acceptAs: TenantCtx | null,
): Promise<Suggested> {
  const { question } = from;
  if (nearDuplicate(article.title, question) || article.questions.some((q) => nearDuplicate(q, question))) {
    return "duplicate";
  }
  if ((await pendingQuestions(ctx, article.id)).some((q) => nearDuplicate(q, question))) return "duplicate";
  const [added] = await ctx.db
    .insert(aiQuestionSuggestions)
    .values({
      organizationId: ctx.orgId,
      articleId: article.id,
      question,
      source: from.source,
      sourceId: from.sourceId,
    })
    .onConflictDoNothing()
    .returning({ id: aiQuestionSuggestions.id });
  if (!added) return "duplicate";
  if (!acceptAs) return "suggested";
  const { accepted, kept } = await acceptPending(acceptAs, [{ ...added, question, articleId: article.id }]);
  return accepted.length > 0 ? "added" : kept.length > 0 ? "full" : "duplicate";
}

/** The organization's choice: whether suggestions join their article without review. */
export async function learnsAutomatically(ctx: Pick<TenantCtx, "db" | "orgId">): Promise<boolean> {
  return (await learningOf(ctx))?.learn ?? false;
}

async function pendingQuestions(ctx: Pick<TenantCtx, "db" | "orgId">, articleId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ question: aiQuestionSuggestions.question })
    .from(aiQuestionSuggestions)
    .where(
      and(
        eq(aiQuestionSuggestions.organizationId, ctx.orgId),
        eq(aiQuestionSuggestions.articleId, articleId),
        eq(aiQuestionSuggestions.state, "pending"),
      ),
    );
  return rows.map((r) => r.question);
}

/** The pending suggestions, newest first, each with its article and how many example questions that has. */
export async function listSuggestions(ctx: Ctx): Promise<QuestionSuggestionsAnswer> {
  const rows = await ctx.db
    .select({
      id: aiQuestionSuggestions.id,
      question: aiQuestionSuggestions.question,
      source: aiQuestionSuggestions.source,
      articleId: aiQuestionSuggestions.articleId,
      createdAt: aiQuestionSuggestions.createdAt,
    })
    .from(aiQuestionSuggestions)
    .where(and(eq(aiQuestionSuggestions.organizationId, ctx.orgId), eq(aiQuestionSuggestions.state, "pending")))
    .orderBy(desc(aiQuestionSuggestions.createdAt), desc(aiQuestionSuggestions.id))
    .limit(SUGGESTIONS_SHOWN);
  const articles = await articleQuestionCounts(ctx.db, ctx.orgId, [...new Set(rows.map((r) => r.articleId))]);
  const suggestions: QuestionSuggestion[] = rows.map((r) => ({
    id: r.id,
    question: r.question,
    source: r.source,
    article: { id: r.articleId, title: "", questions: 0, ...articles.get(r.articleId) },
    created_at: r.createdAt.toISOString(),
  }));
  return { suggestions };
}
