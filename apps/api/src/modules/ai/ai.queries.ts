import type { AiChannel, AiFeedback, AiTone } from "@cove/contract/ai.ts";
import { CHAT_DEFAULT_GREETING } from "@cove/contract/chat.ts";
import { and, desc, eq, gte, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { aiAnswers, aiSentenceVectors, aiSettings } from "../../db/schema/ai.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import { publishedArticlesStamp } from "../kb/index.ts";

/** What a new organization's assistant starts with (the column defaults of ai_settings, migration 0004). */
export const DEFAULT_SETTINGS = {
  enabled: true,
  handoffThreshold: 0.5,
  greeting: CHAT_DEFAULT_GREETING,
  tone: "friendly" as AiTone,
  learnAutomatically: false,
  falseHandoffTarget: 0.1,
  thresholdAutomatic: false,
};

export interface AssistantState {
  orgSlug: string;
  enabled: boolean;
  handoffThreshold: number;
  greeting: string;
  tone: AiTone;
  learnAutomatically: boolean;
  falseHandoffTarget: number;
  thresholdAutomatic: boolean;
  settingsUpdatedAt: Date | null;
  /** Changes whenever a published article is added, edited, unpublished or deleted. */
  articlesStamp: string;
}

/** What an admin may change: the settings part of the assistant's state. */
export type SettingsChanges = Partial<
  Pick<
    AssistantState,
    | "enabled"
    | "handoffThreshold"
    | "greeting"
    | "tone"
    | "learnAutomatically"
    | "falseHandoffTarget"
    | "thresholdAutomatic"
  >
>;

/**
 * One round trip per question: the organization's slug, its assistant settings (defaults when never saved), and a
 * fingerprint of its published articles (count, latest change, and the sum of change times, so an edit plus a
 * deletion in the same instant still changes it) that tells whether the cached index is still current.
 */
export async function loadAssistantState(db: Queryable, orgId: string): Promise<AssistantState | null> {
  const [row] = await queryRows<{
    slug: string;
    enabled: boolean | null;
    handoff_threshold: number | null;
    greeting: string | null;
    tone: AiTone | null;
    learn_automatically: boolean | null;
    false_handoff_target: number | null;
    threshold_automatic: boolean | null;
    updated_at: Date | string | null;
    stamp: string;
  }>(
    db,
    sql`select o.slug, s.enabled, s.handoff_threshold, s.greeting, s.tone, s.learn_automatically,
               s.false_handoff_target, s.threshold_automatic, s.updated_at, k.stamp
        from ${organizations} o
        left join ${aiSettings} s on s.organization_id = o.id
        cross join lateral (${publishedArticlesStamp(sql`o.id`)}) k
        where o.id = ${orgId}`,
  );
  if (!row) return null;
  return {
    orgSlug: row.slug,
    enabled: row.enabled ?? DEFAULT_SETTINGS.enabled,
    handoffThreshold: row.handoff_threshold ?? DEFAULT_SETTINGS.handoffThreshold,
    greeting: row.greeting ?? DEFAULT_SETTINGS.greeting,
    tone: row.tone ?? DEFAULT_SETTINGS.tone,
    learnAutomatically: row.learn_automatically ?? DEFAULT_SETTINGS.learnAutomatically,
    falseHandoffTarget: row.false_handoff_target ?? DEFAULT_SETTINGS.falseHandoffTarget,
    thresholdAutomatic: row.threshold_automatic ?? DEFAULT_SETTINGS.thresholdAutomatic,
    settingsUpdatedAt: row.updated_at === null ? null : new Date(row.updated_at),
    articlesStamp: row.stamp,
  };
}

/** The greeting the organization saved for its assistant, or null when it never saved its settings. */
export async function savedGreeting(db: Queryable, orgId: string): Promise<string | null> {
  const [row] = await db
    .select({ greeting: aiSettings.greeting })
    .from(aiSettings)
    .where(eq(aiSettings.organizationId, orgId));
  return row?.greeting ?? null;
}

export async function saveSettings(db: Queryable, orgId: string, changes: SettingsChanges): Promise<void> {
  await db
    .insert(aiSettings)
    .values({ organizationId: orgId, ...DEFAULT_SETTINGS, ...changes, updatedAt: new Date() })
    .onConflictDoUpdate({ target: aiSettings.organizationId, set: { ...changes, updatedAt: new Date() } });
}

export async function logAnswer(db: Queryable, row: typeof aiAnswers.$inferInsert): Promise<string> {
  const [logged] = await db.insert(aiAnswers).values(row).returning({ id: aiAnswers.id });
  if (!logged) throw new Error("answer insert returned nothing");
  return logged.id;
}

/**
 * The thumbs of these logged answers of the organization (null where nobody rated). Read by staff, and by a chat
 * visitor for the answers in its own chats (its role sees no other: migration 0050).
 */
/**
 * The visitor's thumbs on these logged answers, and for staff (withMarks) whether a person marked each wrong: the
 * contact role cannot read that column, so a visitor's read leaves it out.
 */
export async function feedbackOf(
  db: Queryable,
  orgId: string,
  ids: string[],
  withMarks = false,
): Promise<Map<string, { feedback: AiFeedback | null; markedWrong?: boolean }>> {
  if (ids.length === 0) return new Map();
  const which = and(eq(aiAnswers.organizationId, orgId), inArray(aiAnswers.id, ids));
  const base = { id: aiAnswers.id, feedback: aiAnswers.feedback };
  const rows: { id: string; feedback: AiFeedback | null; markedWrong?: boolean }[] = withMarks
    ? await db
        .select({ ...base, markedWrong: aiAnswers.markedWrong })
        .from(aiAnswers)
        .where(which)
    : await db.select(base).from(aiAnswers).where(which);
  return new Map(rows.map(({ id, ...rest }) => [id, rest]));
}

/**
 * Thumbs up or down on a logged answer of the organization (of that channel only, when one is given); false when there
 * is no such answer.
 */
export async function saveFeedback(
  db: Queryable,
  orgId: string,
  id: string,
  feedback: AiFeedback,
  channel?: AiChannel,
) {
  const rows = await db
    .update(aiAnswers)
    .set({ feedback })
    .where(
      and(
        eq(aiAnswers.organizationId, orgId),
        eq(aiAnswers.id, id),
        channel ? eq(aiAnswers.channel, channel) : undefined,
      ),
    )
    .returning({ id: aiAnswers.id });
  return rows.length > 0;
}

/**
 * Answers below this confidence are "could not answer" even when the threshold let them through. Migration
 * 0080_report_data_versions.sql writes it, and couldNotAnswer below, again in the trigger that bumps the data version for
 * the reports' cached answers: change them together (test/reports/reports-cache.test.ts checks the edge).
 */
export const LOW_CONFIDENCE = 0.6;
/** The newest this many unanswered questions are grouped; older ones wait until these are dealt with. */
const UNANSWERED_ROWS = 2000;

/** An answer the assistant could not give: handed off (not on the customer's request), low confidence, thumbs down. */
const couldNotAnswer = and(
  ne(aiAnswers.provider, "handoff-request"),
  or(eq(aiAnswers.handoff, true), sql`${aiAnswers.confidence} < ${LOW_CONFIDENCE}`, eq(aiAnswers.feedback, "down")),
);

/**
 * The last `days` days' questions the assistant could not answer and nobody has dealt with yet: handed off (but not
 * because the customer asked for a person), answered with low confidence, or given a thumbs down.
 */
export async function loadUnanswered(db: Queryable, orgId: string, days: number) {
  return db
    .select({
      id: aiAnswers.id,
      question: aiAnswers.question,
      handoff: aiAnswers.handoff,
      createdAt: aiAnswers.createdAt,
    })
    .from(aiAnswers)
    .where(
      and(
        eq(aiAnswers.organizationId, orgId),
        gte(aiAnswers.createdAt, sql`now() - make_interval(days => ${days})`),
        isNull(aiAnswers.reviewedAt),
        couldNotAnswer,
      ),
    )
    .orderBy(desc(aiAnswers.createdAt))
    .limit(UNANSWERED_ROWS);
}

/**
 * The questions customers asked between two instants (start included) that the assistant could not answer, by the
 * same rule as loadUnanswered (handed off but not on request, low confidence, or a thumbs down), whether or not the
 * team has dealt with them since: the reports' history. The staff's test console is left out.
 */
export async function unansweredBetween(db: Queryable, orgId: string, start: string, end: string) {
  return db
    .select({ question: aiAnswers.question, handoff: aiAnswers.handoff, createdAt: aiAnswers.createdAt })
    .from(aiAnswers)
    .where(
      and(
        eq(aiAnswers.organizationId, orgId),
        gte(aiAnswers.createdAt, sql`${start}::timestamptz`),
        sql`${aiAnswers.createdAt} < ${end}::timestamptz`,
        ne(aiAnswers.channel, "console"),
        couldNotAnswer,
      ),
    )
    .orderBy(desc(aiAnswers.createdAt))
    .limit(UNANSWERED_ROWS);
}

/**
 * The team dealt with these logged questions: they leave the list, remembering the article they went to, or that no
 * article covers them.
 */
export async function markReviewed(
  db: Queryable,
  orgId: string,
  ids: string[],
  outcome: { articleId: string } | { notCovered: true },
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(aiAnswers)
    .set({
      reviewedAt: new Date(),
      ...("articleId" in outcome ? { reviewedArticleId: outcome.articleId } : { notCovered: true }),
    })
    .where(and(eq(aiAnswers.organizationId, orgId), inArray(aiAnswers.id, ids)))
    .returning({ id: aiAnswers.id });
  return rows.length;
}

/** A logged answer of the organization: the question it answered. */
export async function loggedQuestion(db: Queryable, orgId: string, id: string) {
  const [row] = await db
    .select({ id: aiAnswers.id, question: aiAnswers.question })
    .from(aiAnswers)
    .where(and(eq(aiAnswers.organizationId, orgId), eq(aiAnswers.id, id)));
  return row;
}

/** A logged answer of the organization as a rating reads it: what was asked, where, and the articles it was drawn from. */
export async function ratedAnswer(db: Queryable, orgId: string, id: string) {
  const [row] = await db
    .select({
      id: aiAnswers.id,
      channel: aiAnswers.channel,
      question: aiAnswers.question,
      handoff: aiAnswers.handoff,
      sourceArticleIds: aiAnswers.sourceArticleIds,
    })
    .from(aiAnswers)
    .where(and(eq(aiAnswers.organizationId, orgId), eq(aiAnswers.id, id)));
  return row;
}

/**
 * A person marked this logged answer wrong, naming the article that answers its question or saying none does: it
 * leaves the unanswered list (if it was on it) and becomes a label for the threshold. A later mark replaces an earlier.
 */
export async function markAnswerWrong(
  db: Queryable,
  orgId: string,
  id: string,
  outcome: { articleId: string } | { notCovered: true },
): Promise<void> {
  const articleId = "articleId" in outcome ? outcome.articleId : null;
  await db
    .update(aiAnswers)
    .set({ reviewedAt: new Date(), markedWrong: true, reviewedArticleId: articleId, notCovered: articleId === null })
    .where(and(eq(aiAnswers.organizationId, orgId), eq(aiAnswers.id, id)));
}

/**
 * Counts of the last `days` days. Questions staff ask in the test console are counted apart: the resolution rate is
 * about customers.
 */
export async function answerCounts(db: Queryable, orgId: string, days: number) {
  const [row] = await queryRows<{
    answers: number;
    resolved: number;
    average_confidence: number | null;
    console_answers: number;
    rated_helpful: number;
    rated_unhelpful: number;
  }>(
    db,
    sql`select (count(*) filter (where channel <> 'console'))::int as answers,
               (count(*) filter (where channel <> 'console' and feedback = 'up'))::int as rated_helpful,
               (count(*) filter (where channel <> 'console' and feedback = 'down'))::int as rated_unhelpful,
               (count(*) filter (where channel <> 'console' and not handoff))::int as resolved,
               (avg(confidence) filter (where channel <> 'console'))::float8 as average_confidence,
               (count(*) filter (where channel = 'console'))::int as console_answers
        from ${aiAnswers}
        where organization_id = ${orgId} and created_at >= now() - make_interval(days => ${days})`,
  );
  return (
    row ?? {
      answers: 0,
      resolved: 0,
      average_confidence: null,
      console_answers: 0,
      rated_helpful: 0,
      rated_unhelpful: 0,
    }
  );
}

/** Every sentence vector stored for the organization's knowledge base, by key (sentences.ts). */
export async function loadSentenceVectors(db: Queryable, orgId: string): Promise<Map<string, Int8Array>> {
  const rows = await db
    .select({ key: aiSentenceVectors.key, vector: aiSentenceVectors.vector })
    .from(aiSentenceVectors)
    .where(eq(aiSentenceVectors.organizationId, orgId));
  return new Map(rows.map((r) => [r.key, new Int8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength)]));
}

/** Rows per statement: well under PostgreSQL's 65,535 parameters. */
const VECTOR_BATCH = 500;

/**
 * Stores the new vectors (a key another instance stored meanwhile is left as it is) and drops the stale ones, whose
 * text no article has any more.
 */
export async function saveSentenceVectors(
  db: Queryable,
  orgId: string,
  added: ReadonlyMap<string, Int8Array>,
  staleKeys: readonly string[],
): Promise<void> {
  // In key order, as every instance writes them: two saves of one knowledge base never lock rows crosswise.
  const rows = [...added]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, v]) => ({ organizationId: orgId, key, vector: Buffer.from(v.buffer, v.byteOffset, v.byteLength) }));
  const stale = [...staleKeys].sort();
  for (let i = 0; i < rows.length; i += VECTOR_BATCH) {
    await db
      .insert(aiSentenceVectors)
      .values(rows.slice(i, i + VECTOR_BATCH))
      .onConflictDoNothing();
  }
  for (let i = 0; i < stale.length; i += VECTOR_BATCH) {
    await db
      .delete(aiSentenceVectors)
      .where(
        and(
          eq(aiSentenceVectors.organizationId, orgId),
          inArray(aiSentenceVectors.key, stale.slice(i, i + VECTOR_BATCH)),
        ),
      );
  }
}
