/**
 * Implicit answerable labels for the hand-off threshold, measured beside the month (issue 35, item 2; bench/ai-month.ts
 * with BENCH_AI_MONTH_IMPLICIT=1): threshold.ts's labelled history plus every question the assistant answered in a live
 * chat that nobody complained about, counted as answerable at the confidence logged when it was asked. Not complained
 * about: no thumbs (up or down), not marked wrong nor not covered, not reviewed from the unanswered list, not already
 * a label (its wording accepted as an example question), and no message after it in the same chat from an agent or
 * the system (a hand-off notice, whether the assistant handed off a later question or the visitor asked for a person,
 * and the notice that the chat became a ticket). The quiet time a product would wait before counting one (a visitor may
 * still complain) is not simulated: the month takes minutes, and every answer counts as quiet, the most labels the
 * rule can give. Weighted: each implicit label counts `weight` of an explicit one in the 10th percentile.
 */
import { sql } from "drizzle-orm";
import type { Labelled } from "../apps/api/src/modules/ai/threshold.ts";
import { HISTORY_DAYS, labelledHistory, MIN_ANSWERABLE } from "../apps/api/src/modules/ai/threshold.ts";
import { sameWording } from "../apps/api/src/modules/ai/unanswered.ts";
import { type Database, queryRows } from "../apps/api/src/platform/db.ts";

export interface ImplicitLabelled extends Labelled {
  implicit?: true;
}

/** The labelled history with the implicit answerable labels added. */
export async function withImplicitLabels(database: Database, orgId: string): Promise<ImplicitLabelled[]> {
  const explicit = await labelledHistory(database.db, orgId);
  const rows = await queryRows<{ question: string; confidence: number }>(
    database.db,
    sql`select a.question, a.confidence from ai_answers a
        join chat_messages m on m.organization_id = a.organization_id and m.ai_answer_id = a.id
        where a.organization_id = ${orgId} and a.channel = 'chat' and a.provider <> 'handoff-request'
          and not a.handoff and a.feedback is null and not a.not_covered and not a.marked_wrong
          and a.reviewed_at is null and a.reviewed_article_id is null
          and a.created_at >= now() - make_interval(days => ${HISTORY_DAYS})
          and not exists (select 1 from chat_messages l
            where l.organization_id = m.organization_id and l.session_id = m.session_id
              and l.created_at > m.created_at and l.sender_type in ('agent', 'system'))`,
  );
  const accepted = await queryRows<{ question: string }>(
    database.db,
    sql`select question from ai_question_suggestions where organization_id = ${orgId} and state = 'accepted'`,
  );
  const implicit = rows
    .filter((r) => !accepted.some((l) => sameWording(l.question, r.question)))
    .map((r): ImplicitLabelled => ({ confidence: Number(r.confidence), answerable: true, implicit: true }));
  return [...explicit, ...implicit];
}

/**
 * threshold.ts's target rule with weights (without the 85% floor, as measured before it): the highest threshold at
 * which at most `target` of the answerable labels' weight falls below it (explicit labels weigh 1, implicit ones
 * `weight`), rounded down to a hundredth. With every weight 1 it is targetThreshold's (k+1)-th smallest,
 * k = floor(target * n). Null below MIN_ANSWERABLE answerable labels.
 */
export function proposeWeighted(labels: ImplicitLabelled[], target: number, weight: number): number | null {
  const answerable = labels
    .filter((l) => l.answerable)
    .map((l) => ({ c: l.confidence, w: l.implicit ? weight : 1 }))
    .sort((a, b) => a.c - b.c);
  if (answerable.length < MIN_ANSWERABLE) return null;
  const allowed = target * answerable.reduce((s, l) => s + l.w, 0) + 1e-9;
  let below = 0;
  let at = 1;
  for (const l of answerable) {
    if (below + l.w > allowed) {
      at = l.c;
      break;
    }
    below += l.w;
  }
  return Math.min(1, Math.max(0, Math.floor(at * 100 + 1e-9) / 100));
}
