import {
  AI_STATS_DAYS,
  type AiResponseAnswer,
  type AiSettings,
  type AiStatsAnswer,
  type aiResponseBody,
  type updateAiSettingsBody,
} from "@cove/contract/ai.ts";
import type { z } from "zod";
import type { Db } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import { type Ctx, withVisitor } from "../../platform/tenancy.ts";
import { answerCounts, loadAssistantState, loadPublishedArticles, logAnswer, saveSettings } from "./ai.queries.ts";
import { findCandidates } from "./candidates.ts";
import { asksForPerson } from "./handoff-request.ts";
import { organizationIndex } from "./index-cache.ts";
import { type AiProvider, type Draft, handoffDraft, REPLIES } from "./provider.ts";

export type Channel = "console" | "demo" | "chat" | "portal" | "api";
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
}

const toAnswer = (d: Draft): AiResponseAnswer => ({
  response: d.response,
  confidence: d.confidence,
  suggestedActions: d.suggestedActions,
  sources: d.sources,
  handoff: d.handoff,
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
  // withVisitor: the same RLS confinement as a signed-in request, for the public demo and the console alike.
  const prepared = await withVisitor(db, orgId, async ({ db: tx }) => {
    const state = await loadAssistantState(tx, orgId);
    if (!state) throw notFound("Organization");
    if (!state.enabled) return { state, candidates: [] };
    const index = await organizationIndex(orgId, state.articlesStamp, () => loadPublishedArticles(tx, orgId));
    return { state, candidates: findCandidates(index, state.orgSlug, question.message, question.conversation) };
  });
  const { state, candidates } = prepared;
  if (!state.enabled) return toAnswer(handoffDraft(REPLIES.disabled, 0, "disabled"));

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
  await withVisitor(db, orgId, ({ db: tx }) =>
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
  return toAnswer(draft);
}

export async function getSettings(ctx: Ctx): Promise<AiSettings> {
  const state = await loadAssistantState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  return {
    enabled: state.enabled,
    handoff_threshold: state.handoffThreshold,
    greeting: state.greeting,
    tone: state.tone,
    updated_at: state.settingsUpdatedAt?.toISOString() ?? null,
  };
}

export async function updateSettings(ctx: Ctx, input: z.output<typeof updateAiSettingsBody>): Promise<AiSettings> {
  await saveSettings(ctx.db, ctx.orgId, {
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(input.handoff_threshold !== undefined ? { handoffThreshold: input.handoff_threshold } : {}),
    ...(input.greeting !== undefined ? { greeting: input.greeting } : {}),
    ...(input.tone !== undefined ? { tone: input.tone } : {}),
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
  };
}
