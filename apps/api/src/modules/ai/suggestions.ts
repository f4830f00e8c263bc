import {
  type QuestionSuggestion,
  type QuestionSuggestionsAnswer,
  type SUGGESTION_SOURCES,
  SUGGESTIONS_SHOWN,
} from "@cove/contract/ai.ts";
import type { DomainEvent } from "@cove/contract/events.ts";
import { helpCenterPath, KB_QUESTION_MAX } from "@cove/contract/kb.ts";
import { and, desc, eq } from "drizzle-orm";
import { aiQuestionSuggestions, aiSettings } from "../../db/schema/ai.ts";
import { organizations } from "../../db/schema/organizations.ts";
import type { EventBus, EventContext } from "../../platform/events.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { messageWithQuestion } from "../chat/chat.queries.ts";
import { articleQuestionCounts, findPublishedBySlug } from "../kb/kb.queries.ts";
import { findComment, findTicketRow } from "../tickets/tickets.queries.ts";
import { acceptPending, nearDuplicate } from "./learning.ts";

/**
 * Learning from the team: when an agent answers a customer (a public reply on a ticket, a message in a live chat) with
 * a link to one of the organization's published help-center articles, the customer's question (the ticket's subject,
 * or what the visitor last wrote) is suggested as an example question of that article. An admin accepts it with one
 * click on the AI Assistant page, and the assistant then finds that article for questions worded like it.
 */
export function registerSuggestionHandlers(bus: EventBus): void {
  bus.onInTransaction(["comment.added"], fromTicketReply);
  bus.onInTransaction(["chat.message_added"], fromChatMessage);
}

type Source = (typeof SUGGESTION_SOURCES)[number];

async function fromTicketReply(ctx: EventContext, event: DomainEvent<"comment.added">) {
  if (!event.data.is_public || event.actor.kind !== "staff") return;
  // One comment read per staff reply; the rest only when it links an article.
  const body = (await findComment(ctx.db, ctx.orgId, event.data.comment_id))?.body;
  if (!body?.includes("/articles/")) return;
  const ticket = await findTicketRow(ctx.db, ctx.orgId, event.data.ticket_id);
  if (!ticket) return;
  await suggest(ctx, body, ticket.subject, "ticket", ticket.id);
}

async function fromChatMessage(ctx: EventContext, event: DomainEvent<"chat.message_added">) {
  if (event.data.sender_type !== "agent") return;
  const found = await messageWithQuestion(ctx.db, ctx.orgId, event.data.session_id, event.data.message_id);
  if (!found?.question || !found.message.message.includes("/articles/")) return;
  await suggest(ctx, found.message.message, found.question, "chat", event.data.session_id);
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

async function suggest(ctx: EventContext, answer: string, asked: string, source: Source, sourceId: string) {
  const question = asked.replace(/\s+/g, " ").trim();
  if (question.length < 3 || question.length > KB_QUESTION_MAX) return;
  const [org] = await ctx.db
    .select({ slug: organizations.slug, learn: aiSettings.learnAutomatically })
    .from(organizations)
    .leftJoin(aiSettings, eq(aiSettings.organizationId, organizations.id))
    .where(eq(organizations.id, ctx.orgId));
  if (!org) return;
  for (const slug of linkedArticleSlugs(answer, org.slug)) {
    const article = await findPublishedBySlug(ctx.db, ctx.orgId, slug);
    if (!article) continue;
    if (nearDuplicate(article.title, question) || article.questions.some((q) => nearDuplicate(q, question))) continue;
    if ((await pendingQuestions(ctx, article.id)).some((q) => nearDuplicate(q, question))) continue;
    // Suggested once per article and wording (whatever became of it): the unique index keeps repeats out.
    const [added] = await ctx.db
      .insert(aiQuestionSuggestions)
      .values({ organizationId: ctx.orgId, articleId: article.id, question, source, sourceId })
      .onConflictDoNothing()
      .returning({ id: aiQuestionSuggestions.id });
    // "Accept automatically": the question joins its article now, as Cove's own change; at the article's limit it
    // stays pending for an admin (learning.ts).
    if (added && org.learn)
      await acceptPending(ctx.asSystem("assistant"), [{ ...added, question, articleId: article.id }]);
  }
}

async function pendingQuestions(ctx: EventContext, articleId: string): Promise<string[]> {
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
