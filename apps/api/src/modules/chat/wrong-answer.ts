import type { WrongAnswerAnswer, WrongAnswerBody } from "@cove/contract/ai.ts";
import { KB_QUESTION_MAX, KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import {
  applyIfAutomatic,
  learnsAutomatically,
  loggedQuestion,
  markAnswerWrong,
  type Suggested,
  suggestQuestion,
} from "../ai/index.ts";
import { findPublished } from "../kb/index.ts";
import { selectRateableAnswer } from "./chat.queries.ts";

/**
 * "Wrong answer" on an assistant's answer in the agent's live-chat view (docs/decisions/2026-11-29-assistant-learns.md):
 * the person names the published article that answers the customer's question, which then becomes a candidate example
 * question of it by the same path as a reply linking the article (ai/suggestions.ts; added at once when the organization
 * accepts automatically), or says no article covers it. Either way the answer is a label for the hand-off threshold
 * (ai/threshold.ts): at the confidence it was given, the question should have been handed off.
 */
export async function markWrongAnswer(
  ctx: TenantCtx,
  ids: { sessionId: string; messageId: string },
  input: WrongAnswerBody,
): Promise<WrongAnswerAnswer> {
  const sessionId = recordId("Answer", ids.sessionId);
  // Only an answer of the assistant that was logged (not a greeting, a notice or a hand-off) can be marked.
  const message = await selectRateableAnswer(ctx, sessionId, recordId("Answer", ids.messageId));
  const logged = message ? await loggedQuestion(ctx.db, ctx.orgId, message.aiAnswerId) : undefined;
  if (!logged) throw notFound("Answer");
  let said: string;
  if (input.article_id === undefined) {
    await markAnswerWrong(ctx.db, ctx.orgId, logged.id, { notCovered: true });
    said = "Marked wrong, and as a question no article covers: the assistant learns to hand such questions off.";
  } else {
    const article = await findPublished(ctx.db, ctx.orgId, { id: input.article_id });
    if (!article) throw notFound("Article");
    await markAnswerWrong(ctx.db, ctx.orgId, logged.id, { articleId: article.id });
    const question = logged.question.replace(/\s+/g, " ").trim();
    if (question.length > KB_QUESTION_MAX) {
      said = `Marked wrong. The customer's question is longer than an example question may be (${KB_QUESTION_MAX} characters), so it was not suggested for "${article.title}".`;
    } else {
      const learn = await learnsAutomatically(ctx);
      const outcome = await suggestQuestion(
        ctx,
        article,
        { question, source: "chat", sourceId: sessionId },
        learn ? ctx : null,
      );
      said = `Marked wrong. ${OUTCOMES[outcome](question, article.title)}`;
    }
  }
  // A new label: with "adjust automatically" on, the threshold follows it.
  await applyIfAutomatic(ctx);
  return { message: said };
}

const OUTCOMES: Record<Suggested, (question: string, title: string) => string> = {
  suggested: (q, title) =>
    `"${q}" is suggested as an example question of "${title}": an administrator adds it on the AI Assistant page.`,
  added: (q, title) => `"${q}" is now an example question of "${title}".`,
  full: (q, title) =>
    `"${title}" already has ${KB_QUESTIONS_MAX} example questions, the most an article can have, so "${q}" waits on the AI Assistant page.`,
  duplicate: (q, title) => `"${title}" already has, or was already suggested, a question like "${q}".`,
};
