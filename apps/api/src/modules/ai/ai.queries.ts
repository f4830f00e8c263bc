import type { AiTone } from "@cove/contract/ai.ts";
import { and, asc, eq, sql } from "drizzle-orm";
import { aiAnswers, aiSettings } from "../../db/schema/ai.ts";
import { kbArticles } from "../../db/schema/kb.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import type { KbArticle } from "./retrieval.ts";

/** What a new organization's assistant starts with (the column defaults of ai_settings, migration 0004). */
export const DEFAULT_SETTINGS = {
  enabled: true,
  handoffThreshold: 0.5,
  greeting: "Hi! I'm the virtual assistant. How can I help you today?",
  tone: "friendly" as AiTone,
};

export interface AssistantState {
  orgSlug: string;
  enabled: boolean;
  handoffThreshold: number;
  greeting: string;
  tone: AiTone;
  settingsUpdatedAt: Date | null;
  /** Changes whenever a published article is added, edited, unpublished or deleted. */
  articlesStamp: string;
}

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
    updated_at: Date | string | null;
    n: number;
    latest: string | null;
    checksum: string | null;
  }>(
    db,
    sql`select o.slug, s.enabled, s.handoff_threshold, s.greeting, s.tone, s.updated_at,
          k.n, k.latest, k.checksum
        from ${organizations} o
        left join ${aiSettings} s on s.organization_id = o.id
        cross join lateral (
          select count(*)::int as n, max(a.updated_at)::text as latest,
                 sum(extract(epoch from a.updated_at))::text as checksum
          from ${kbArticles} a
          where a.organization_id = o.id and a.status = 'published'
        ) k
        where o.id = ${orgId}`,
  );
  if (!row) return null;
  return {
    orgSlug: row.slug,
    enabled: row.enabled ?? DEFAULT_SETTINGS.enabled,
    handoffThreshold: row.handoff_threshold ?? DEFAULT_SETTINGS.handoffThreshold,
    greeting: row.greeting ?? DEFAULT_SETTINGS.greeting,
    tone: row.tone ?? DEFAULT_SETTINGS.tone,
    settingsUpdatedAt: row.updated_at === null ? null : new Date(row.updated_at),
    articlesStamp: `${row.n}|${row.latest ?? ""}|${row.checksum ?? ""}`,
  };
}

/** Published articles only: drafts are never used or cited. */
export async function loadPublishedArticles(db: Queryable, orgId: string): Promise<KbArticle[]> {
  return db
    .select({
      id: kbArticles.id,
      title: kbArticles.title,
      slug: kbArticles.slug,
      body: kbArticles.body,
      questions: kbArticles.questions,
    })
    .from(kbArticles)
    .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.status, "published")))
    .orderBy(asc(kbArticles.id));
}

export async function saveSettings(
  db: Queryable,
  orgId: string,
  changes: Partial<{ enabled: boolean; handoffThreshold: number; greeting: string; tone: AiTone }>,
): Promise<void> {
  await db
    .insert(aiSettings)
    .values({ organizationId: orgId, ...DEFAULT_SETTINGS, ...changes, updatedAt: new Date() })
    .onConflictDoUpdate({ target: aiSettings.organizationId, set: { ...changes, updatedAt: new Date() } });
}

export async function logAnswer(db: Queryable, row: typeof aiAnswers.$inferInsert): Promise<void> {
  await db.insert(aiAnswers).values(row);
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
  }>(
    db,
    sql`select (count(*) filter (where channel <> 'console'))::int as answers,
               (count(*) filter (where channel <> 'console' and not handoff))::int as resolved,
               (avg(confidence) filter (where channel <> 'console'))::float8 as average_confidence,
               (count(*) filter (where channel = 'console'))::int as console_answers
        from ${aiAnswers}
        where organization_id = ${orgId} and created_at >= now() - make_interval(days => ${days})`,
  );
  return row ?? { answers: 0, resolved: 0, average_confidence: null, console_answers: 0 };
}
