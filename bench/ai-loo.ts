/**
 * The leave-one-out fit of the hand-off threshold, measured beside the month (issue 35, item 2; bench/ai-month.ts with
 * BENCH_AI_MONTH_LOO=1): each labelled question is scored against the knowledge base as it is after the month, but
 * without any trace of that question: its own example question removed, and with it everything the index derives from
 * the article's texts (the whole-article unit's words and sentence vector, the idf, the centre), by building the index
 * again without it. Its confidence is then what a new question like it would get. threshold.ts's rule then reads these
 * confidences instead of the ones logged when each question was asked.
 */
import { findCandidates } from "../apps/api/src/modules/ai/candidates.ts";
import { buildIndex, type KbArticle, type SearchIndex } from "../apps/api/src/modules/ai/retrieval.ts";
import { activeEncoder, encodeTexts } from "../apps/api/src/modules/ai/sentence-encoder.ts";
import { attachSentenceVectors } from "../apps/api/src/modules/ai/sentences.ts";
import { type LabelledQuestion, labelledHistory } from "../apps/api/src/modules/ai/threshold.ts";
import { sameWording } from "../apps/api/src/modules/ai/unanswered.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { publishedArticles } from "../apps/api/src/modules/kb/index.ts";
import type { Database } from "../apps/api/src/platform/db.ts";

/** A labelled question, with the confidence read again here beside the one logged when it was asked. */
export interface RescoredQuestion extends LabelledQuestion {
  /** The confidence logged when it was asked (`confidence` is the one read again). */
  logged: number;
}

/** Gives an index the sentence vectors of its texts from `rows` (by text); the whole-article units as sentences.ts. */
function attach(index: SearchIndex, rows: ReadonlyMap<string, Float32Array>, dimensions: number, encoder: string) {
  const all = new Float32Array(index.units.length * dimensions);
  index.texts.forEach((text, id) => {
    const row = text ? rows.get(text) : undefined;
    if (row) all.set(row, id * dimensions);
  });
  attachSentenceVectors(index, all, { name: encoder, dimensions });
}

export interface LeaveOneOut {
  labels: RescoredQuestion[];
  /** Labels whose question was one of an article's example questions, scored on an index built without it. */
  leftOut: number;
  /** The full index's confidence of each `check` question (to compare with the app's own answers). */
  check: number[];
  ms: number;
}

/**
 * The newest `newest` labels with their confidence read again, leaving each one's own example question out; `check`:
 * questions to score on the full index (a sanity check against the app's answers to the same questions).
 */
export async function leaveOneOut(
  database: Database,
  orgId: string,
  orgSlug: string,
  newest: number,
  check: string[] = [],
): Promise<LeaveOneOut> {
  const started = performance.now();
  const labels = (await labelledHistory(database.db, orgId))
    .slice(0, newest)
    .map((l) => ({ ...l, logged: l.confidence }));
  const articles: KbArticle[] = await publishedArticles(database.db, orgId);
  const vectors = wordVectors();
  const full = buildIndex(articles, vectors);
  const encoder = activeEncoder();
  if (!encoder) throw new Error("the leave-one-out fit needs the sentence encoder");
  const texts = [...new Set([...full.texts.filter(Boolean), ...labels.map((l) => l.question), ...check])];
  const encoded = await encodeTexts(texts, "index", {}, encoder);
  if (!encoded) throw new Error("the sentence encoder did not answer");
  const D = encoded.dimensions;
  const rows = new Map(texts.map((text, k) => [text, encoded.rows.slice(k * D, (k + 1) * D)]));
  attach(full, rows, D, encoder);
  const score = (index: SearchIndex, question: string) => {
    const readings = new Map([[question, rows.get(question) ?? null]]);
    return findCandidates(index, orgSlug, question, [], readings)[0]?.confidence ?? 0;
  };
  let leftOut = 0;
  const rescored = labels.map((label) => {
    const own = articles.some((a) => a.questions.some((q) => sameWording(q, label.question)));
    if (!own) return { ...label, confidence: score(full, label.question) };
    leftOut++;
    const without = buildIndex(
      articles.map((a) => ({ ...a, questions: a.questions.filter((q) => !sameWording(q, label.question)) })),
      vectors,
    );
    attach(without, rows, D, encoder);
    return { ...label, confidence: score(without, label.question) };
  });
  return {
    labels: rescored,
    leftOut,
    check: check.map((q) => score(full, q)),
    ms: performance.now() - started,
  };
}
