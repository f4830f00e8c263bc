import type { ThresholdProposal } from "@cove/contract/ai.ts";
import { and, desc, eq, gte, ne, notInArray, sql } from "drizzle-orm";
import { aiAnswers, aiQuestionSuggestions } from "../../db/schema/ai.ts";
import type { Queryable } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";
import { DEFAULT_SETTINGS, loadAssistantState, saveSettings } from "./ai.queries.ts";
import { sameWording } from "./unanswered.ts";

/**
 * Each organization's own hand-off threshold (docs/product.md, "The assistant learns";
 * docs/decisions/2026-11-29-assistant-learns.md), fitted on its labelled past questions: the confidence the assistant
 * gave each when it was asked, and whether an article covered it.
 */

/** Below this many answerable labelled questions the default threshold stays (a proposal would be noise). */
export const MIN_ANSWERABLE = 20;
/** With "adjust automatically" on, the proposal is applied once this many questions are labelled. */
export const AUTOMATIC_FROM = 50;
/**
 * The share of uncovered labelled questions the proposal hands off at least (the goal, 85%), whatever the
 * target for answerable ones.
 */
export const UNCOVERED_FLOOR = 0.85;
/**
 * Below this many uncovered labelled questions the floor is not applied. From 14, at the 85% floor, two uncovered labels
 * may lie at or above the threshold, as two answerable ones may lie below it with MIN_ANSWERABLE labels at the default
 * 10% target: the same count of labels decides each side.
 */
export const MIN_UNCOVERED = 14;
/** How far back labelled questions are read. */
export const HISTORY_DAYS = 180;

export interface Labelled {
  confidence: number;
  /**
   * True: an article covered it and the assistant's answer was not said to be wrong (it should have been answered);
   * false: it should have been handed off.
   */
  answerable: boolean;
  /**
   * Of those to hand off, why: true when a person marked the assistant's answer wrong (an article may cover the
   * question, but the answer given at that confidence was not it); absent when no article covers it.
   */
  wrong?: boolean;
  /**
   * True when the assistant handed the question off when it was asked (its confidence was below the threshold then in
   * force); false or absent when it answered.
   */
  handedOff?: boolean;
}

/** A labelled question with its words, as labelledHistory reads it (newest first). */
export interface LabelledQuestion extends Labelled {
  question: string;
}

/**
 * The share of each kind a threshold hands off (a question is handed off when its confidence is below it): answerable
 * questions (false hand-offs), uncovered ones and wrongly answered ones (both rightly handed off).
 */
export function handedOffAt(labels: Labelled[], threshold: number) {
  const share = (kind: Labelled[]) =>
    kind.length === 0 ? null : kind.filter((l) => l.confidence < threshold).length / kind.length;
  return {
    threshold,
    answerable: share(labels.filter((l) => l.answerable)) ?? 0,
    uncovered: share(labels.filter((l) => !l.answerable && !l.wrong)),
    wrong: share(labels.filter((l) => !l.answerable && l.wrong)),
  };
}

/**
 * The highest threshold (most uncovered questions handed off) at which at most `target` of the answerable questions
 * are handed off: with n answerable confidences sorted, k = floor(target * n) of them may fall below it, so it is the
 * (k+1)-th smallest, rounded down to a hundredth (rounding down never hands off more). Null below MIN_ANSWERABLE.
 */
export function targetThreshold(labels: Labelled[], target: number): number | null {
  const answerable = labels
    .filter((l) => l.answerable)
    .map((l) => l.confidence)
    .sort((a, b) => a - b);
  if (answerable.length < MIN_ANSWERABLE) return null;
  const k = Math.floor(target * answerable.length + 1e-9);
  const at = answerable[k] ?? 1;
  return Math.min(1, Math.max(0, Math.floor(at * 100 + 1e-9) / 100));
}

/**
 * The lowest threshold, in hundredths, that hands off at least UNCOVERED_FLOOR of the uncovered labelled questions (1
 * when none below it does). Null below MIN_UNCOVERED uncovered labels: the floor is not applied on fewer.
 */
export function floorThreshold(labels: Labelled[]): number | null {
  if (labels.filter((l) => !l.answerable && !l.wrong).length < MIN_UNCOVERED) return null;
  for (let step = 0; step <= 100; step++) {
    const uncovered = handedOffAt(labels, step / 100).uncovered ?? 0;
    if (uncovered >= UNCOVERED_FLOOR - 1e-9) return step / 100;
  }
  return 1;
}

/**
 * How far the floor may raise the proposal: the target's threshold read on the answerable questions the assistant
 * answered itself (handedOff false), the highest at which at most `target` of them are handed off. The floor overrides
 * the target because the answerable questions it handed off were answered by a person with an article since, so
 * questions like them now score higher than their logged confidences: on those the target's count overstates what a
 * threshold costs. The questions it answered carry no such bias, and the floor may not hand off more than the target
 * of them (docs/decisions/2026-11-30-floor-ceiling.md). Null below MIN_ANSWERABLE of them: the floor is then not capped.
 */
export function ceilingThreshold(labels: Labelled[], target: number): number | null {
  return targetThreshold(
    labels.filter((l) => l.answerable && !l.handedOff),
    target,
  );
}

/**
 * The proposal for a target share of false hand-offs: the target's threshold (targetThreshold), raised toward the
 * floor's (floorThreshold) when it hands off fewer than UNCOVERED_FLOOR of the uncovered labelled questions, but no
 * higher than the ceiling's (ceilingThreshold) when there is one. No threshold then meets both; the lowest that meets
 * the floor is proposed rather than one that leaves most uncovered questions answered
 * (docs/decisions/2026-11-29-assistant-learns.md, "The floor"), unless it would hand off more than the target of the
 * questions the assistant answered itself. Null below MIN_ANSWERABLE.
 */
export function proposeThreshold(labels: Labelled[], target: number): number | null {
  const fitted = targetThreshold(labels, target);
  if (fitted === null) return null;
  const floor = floorThreshold(labels) ?? 0;
  const ceiling = ceilingThreshold(labels, target) ?? 1;
  return Math.max(fitted, Math.min(floor, ceiling));
}

/**
 * The organization's labelled questions: customers' questions (not the staff console's nor the demo's, nor requests for
 * a person) of the last HISTORY_DAYS days. Not covered: a person said so. Wrong: a person marked the assistant's answer
 * wrong in the live chat (whatever article they then picked, and even once its wording joined that article, the
 * confidence logged is the wrong answer's: at it the question should have been handed off). Answerable: a thumbs up,
 * attached to an article from the unanswered list, or accepted as an article's example question after a person
 * answered it with that article. A thumbs down alone says the answer did not help, not whether an article covers the
 * question: unused. Each keeps whether the assistant handed it off when asked (ceilingThreshold reads the ones it
 * answered).
 */
export async function labelledHistory(db: Queryable, orgId: string): Promise<LabelledQuestion[]> {
  const rows = await db
    .select({
      question: aiAnswers.question,
      confidence: aiAnswers.confidence,
      feedback: aiAnswers.feedback,
      reviewedArticleId: aiAnswers.reviewedArticleId,
      notCovered: aiAnswers.notCovered,
      markedWrong: aiAnswers.markedWrong,
      handoff: aiAnswers.handoff,
    })
    .from(aiAnswers)
    .where(
      and(
        eq(aiAnswers.organizationId, orgId),
        gte(aiAnswers.createdAt, sql`now() - make_interval(days => ${HISTORY_DAYS})`),
        notInArray(aiAnswers.channel, ["console", "demo"]),
        ne(aiAnswers.provider, "handoff-request"),
      ),
    )
    .orderBy(desc(aiAnswers.createdAt));
  const learned = await db
    .select({ question: aiQuestionSuggestions.question })
    .from(aiQuestionSuggestions)
    .where(and(eq(aiQuestionSuggestions.organizationId, orgId), eq(aiQuestionSuggestions.state, "accepted")));
  return rows.flatMap((r): LabelledQuestion[] => {
    const asked = { question: r.question, confidence: r.confidence, handedOff: r.handoff };
    if (r.notCovered) return [{ ...asked, answerable: false }];
    if (r.markedWrong) return [{ ...asked, answerable: false, wrong: true }];
    const answerable =
      r.feedback === "up" || r.reviewedArticleId !== null || learned.some((l) => sameWording(l.question, r.question));
    return answerable ? [{ ...asked, answerable: true }] : [];
  });
}

const CURVE = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** The proposal for a target share of false hand-offs, with the trade-off on the organization's own questions. */
export async function thresholdProposal(ctx: TenantCtx, target?: number): Promise<ThresholdProposal> {
  const state = await loadAssistantState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  // The saved target is a PostgreSQL real: read back as the hundredth it was.
  const goal = target ?? Math.round(state.falseHandoffTarget * 100) / 100;
  const labels = await labelledHistory(ctx.db, ctx.orgId);
  const answerable = labels.filter((l) => l.answerable).length;
  const wrong = labels.filter((l) => l.wrong).length;
  const proposed = proposeThreshold(labels, goal);
  const floor = floorThreshold(labels);
  const raisedToFloor = proposed !== null && proposed === floor && proposed !== targetThreshold(labels, goal);
  // Below the floor because the ceiling held it there: the sentence says what the floor would have cost.
  const heldByCeiling = proposed !== null && floor !== null && proposed < floor;
  const answeredItself = labels.filter((l) => l.answerable && !l.handedOff);
  const point = (threshold: number) => {
    const at = handedOffAt(labels, threshold);
    return {
      threshold,
      answerable_handed_off: at.answerable,
      uncovered_handed_off: at.uncovered,
      wrong_handed_off: at.wrong,
    };
  };
  let message: string;
  if (proposed === null) {
    const labelledSoFar =
      answerable === 0
        ? "None of your customers' questions is labelled as answerable yet"
        : `Only ${answerable} of your customers' questions ${answerable === 1 ? "is" : "are"} labelled as answerable`;
    message = `${labelledSoFar}; with fewer than ${MIN_ANSWERABLE} the assistant keeps the default threshold (${DEFAULT_SETTINGS.handoffThreshold}) or the one you set.`;
  } else {
    const at = point(proposed);
    message =
      `At ${proposed.toFixed(2)}: ${pct(at.answerable_handed_off)} of answerable questions handed off` +
      (at.uncovered_handed_off === null
        ? " (no question is marked not covered yet)"
        : `, ${pct(at.uncovered_handed_off)} of uncovered ones handed off`) +
      (at.wrong_handed_off === null ? "." : `, ${pct(at.wrong_handed_off)} of those answered wrongly handed off.`) +
      (raisedToFloor
        ? ` No threshold hands off at most ${pct(goal)} of answerable questions and at least ${pct(UNCOVERED_FLOOR)} of uncovered ones: this is the lowest that hands off at least ${pct(UNCOVERED_FLOOR)} of them.`
        : "") +
      (heldByCeiling && floor !== null
        ? ` No threshold hands off at most ${pct(goal)} of answerable questions and at least ${pct(UNCOVERED_FLOOR)} of uncovered ones: ${floor.toFixed(2)} would hand off ${pct(handedOffAt(labels, floor).uncovered ?? 0)} of uncovered ones, but also ${pct(handedOffAt(answeredItself, floor).answerable)} of the answerable questions the assistant answered itself; this one hands off ${pct(handedOffAt(answeredItself, proposed).answerable)} of those.`
        : "");
  }
  return {
    target: goal,
    current: state.handoffThreshold,
    automatic: state.thresholdAutomatic,
    labelled: { answerable, uncovered: labels.length - answerable - wrong, wrong },
    minimum: MIN_ANSWERABLE,
    automatic_from: AUTOMATIC_FROM,
    proposed,
    at_proposed: proposed === null ? null : point(proposed),
    at_current: point(state.handoffThreshold),
    curve: CURVE.map(point),
    message,
  };
}

/** Applies the proposal (and remembers the target); too little history is a 400 that says so. */
export async function applyProposal(ctx: TenantCtx, target: number): Promise<ThresholdProposal> {
  const proposal = await thresholdProposal(ctx, target);
  if (proposal.proposed === null) throw new AppError("BAD_REQUEST", proposal.message);
  await saveSettings(ctx.db, ctx.orgId, { handoffThreshold: proposal.proposed, falseHandoffTarget: target });
  return thresholdProposal(ctx, target);
}

/**
 * With "adjust automatically" on and at least AUTOMATIC_FROM labelled questions, the proposal for the saved target is
 * applied: called after each review that labels questions (accepting suggestions, attaching, marking not covered).
 */
export async function applyIfAutomatic(ctx: TenantCtx): Promise<void> {
  const state = await loadAssistantState(ctx.db, ctx.orgId);
  if (!state?.thresholdAutomatic) return;
  const labels = await labelledHistory(ctx.db, ctx.orgId);
  const proposed = labels.length >= AUTOMATIC_FROM ? proposeThreshold(labels, state.falseHandoffTarget) : null;
  if (proposed !== null && proposed !== state.handoffThreshold) {
    await saveSettings(ctx.db, ctx.orgId, { handoffThreshold: proposed });
  }
}
