import { type ConversationTurn, helpArticlePath } from "@cove/contract/ai.ts";
import { confidenceOf } from "./confidence.ts";
import { excerpt } from "./passages.ts";
import type { Candidate } from "./provider.ts";
import { bestPassage, queryTerms, type SearchIndex, search, unitScores } from "./retrieval.ts";
import { contentWords } from "./text.ts";

/** Articles offered to a provider: the best and two runners-up (for further reading and for a model to weigh). */
const CANDIDATES = 3;
/** A passage shorter than this is a lead-in ("Here is how:") and reads better with the passage that follows it. */
const SHORT_PASSAGE = 80;
/** A follow-up ("and for Canada?") has this many content words at most; it is read with the previous question. */
const FOLLOW_UP_WORDS = 3;

function rank(index: SearchIndex, orgSlug: string, text: string): Candidate[] {
  const query = queryTerms(index, text);
  const scores = unitScores(index, query);
  const hits = search(index, scores, CANDIDATES);
  return hits.map((hit, i) => {
    const article = index.articles[hit.article];
    if (!article) throw new Error("hit outside the index");
    // Each candidate's runner-up is the best other article.
    const rival = i === 0 ? (hits[1]?.score ?? 0) : (hits[0]?.score ?? 0);
    const p = bestPassage(index, scores, hit.article);
    let passage = article.passages[p]?.text ?? "";
    const next = article.passages[p + 1]?.text;
    if (passage && passage.length < SHORT_PASSAGE && next) passage = `${passage}\n\n${next}`;
    return {
      id: article.id,
      title: article.title,
      url: helpArticlePath(orgSlug, article.slug),
      score: hit.score,
      confidence: confidenceOf({ best: hit.best, top: hit.score, second: rival, coverage: query.coverage }),
      passage: excerpt(passage),
      body: article.body,
    };
  });
}

/**
 * The articles that may answer a question, best first, each with its relevant passage and calibrated confidence.
 * A short follow-up is also read together with the customer's previous question, and whichever reading the
 * knowledge base answers more confidently wins.
 */
export function findCandidates(
  index: SearchIndex,
  orgSlug: string,
  question: string,
  conversation: ConversationTurn[] = [],
): Candidate[] {
  if (index.articles.length === 0) return [];
  const direct = rank(index, orgSlug, question);
  const previous = conversation.findLast((t) => t.role === "user")?.content.trim();
  if (!previous || contentWords(question).length > FOLLOW_UP_WORDS) return direct;
  const withContext = rank(index, orgSlug, `${previous} ${question}`);
  return (withContext[0]?.confidence ?? 0) > (direct[0]?.confidence ?? 0) ? withContext : direct;
}
