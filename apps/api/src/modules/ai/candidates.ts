import type { ConversationTurn } from "@cove/contract/ai.ts";
import { helpArticlePath } from "@cove/contract/kb.ts";
import { confidenceOf, signalsOf } from "./confidence.ts";
import { excerpt } from "./passages.ts";
import type { Candidate } from "./provider.ts";
import { passageScores, queryTerms, type SearchIndex, search, type UnitScores, unitScores } from "./retrieval.ts";
import { contentWords } from "./text.ts";

/** Articles offered to a provider: the best and two runners-up (for further reading and for a model to weigh). */
const CANDIDATES = 3;
/** A lead shorter than this reads better with the passage that follows it. */
const SHORT_PASSAGE = 40;
/** Another passage joins the lead when its best sentence matches the question at least this much better. */
const DETAIL_MARGIN = 0.02;
/** A lead that announces what follows ("Work through these in order.") is read with the passage after it. */
const ANNOUNCES = /(?::|\b(?:these|the following|as follows|below|steps)\b[^.!?]*[.!?]?)\s*$/i;
const LEAD_CHARS = 400;
/**
 * A passage is a unit (a list with its lead, a table, a paragraph) and is quoted whole up to this length; a longer
 * one is trimmed at a boundary (a whole item, row or sentence) and says that more follows in the article.
 */
const DETAIL_CHARS = 1000;
/** A follow-up ("and for Canada?") has this many content words at most; it is read with the previous question. */
const FOLLOW_UP_WORDS = 4;
/**
 * What marks a message as continuing the previous question rather than asking a new one: it opens with a connective
 * ("and...", "what about...") or points back with a pronoun ("how long does that take?"). "Do you sell tickets?"
 * after a question about tyres is a new question, and must not be answered about tyres.
 */
const CONTINUES =
  /^(?:and|but|also|so|then|or|what about|how about|what if)\b|\b(?:it|its|that|this|they|them|those|these|there|one)\b/;

/**
 * The Markdown an answer quotes: the article's lead (well-written articles open with the short answer), plus the one
 * passage that matches the question clearly better than the lead does, such as "Refund timing" in a returns article.
 * Never the whole article. Which passages is decided on their plain text; what is quoted is their Markdown.
 */
function answerPassage(index: SearchIndex, scores: UnitScores, article: number): string {
  const passages = index.articles[article]?.passages ?? [];
  const [first, second] = passages;
  if (!first) return "";
  const short = second && (first.text.length < SHORT_PASSAGE || ANNOUNCES.test(first.text));
  const leadEnd = short ? 2 : 1;
  const lead = short ? `${first.markdown}\n\n${second.markdown}` : first.markdown;
  const match = passageScores(index, scores, article);
  const leadScore = Math.max(...match.slice(0, leadEnd));
  let detail = -1;
  match.forEach((score, i) => {
    if (i >= leadEnd && score >= leadScore + DETAIL_MARGIN && score > (match[detail] ?? 0)) detail = i;
  });
  const extra = passages[detail];
  if (!extra) return excerpt(lead, LEAD_CHARS + DETAIL_CHARS);
  const text = excerpt(extra.markdown, DETAIL_CHARS);
  // A heading introduces a list or table on a line of its own, and runs into a paragraph.
  const lines = text.includes("\n");
  const heading = extra.heading && extra.heading !== first.heading ? `${extra.heading}:${lines ? "\n" : " "}` : "";
  return `${excerpt(lead, LEAD_CHARS)}\n\n${heading}${text}`;
}

/** The sentence encoder's vectors of the texts a question is read as, by text (see `readingsOf`). */
export type Readings = ReadonlyMap<string, Float32Array | null>;

function rank(index: SearchIndex, orgSlug: string, text: string, readings: Readings): Candidate[] {
  const query = queryTerms(index, text, undefined, readings.get(text) ?? null);
  const scores = unitScores(index, query);
  const hits = search(index, scores, CANDIDATES);
  return hits.map((hit) => {
    const article = index.articles[hit.article];
    if (!article) throw new Error("hit outside the index");
    return {
      id: article.id,
      title: article.title,
      url: helpArticlePath(orgSlug, article.slug),
      score: hit.score,
      confidence: confidenceOf(signalsOf(query, hit)),
      passage: answerPassage(index, scores, hit.article),
      body: article.body,
    };
  });
}

/**
 * The texts `findCandidates` reads a question as: the question, and for a short follow-up also the customer's
 * previous question with it. Their sentence vectors are computed before retrieval (and outside its transaction).
 */
export function readingsOf(question: string, conversation: ConversationTurn[] = []): string[] {
  const previous = conversation.findLast((t) => t.role === "user")?.content.trim();
  const followUp = contentWords(question).length <= FOLLOW_UP_WORDS && CONTINUES.test(question.toLowerCase().trim());
  return previous && followUp ? [question, `${previous} ${question}`] : [question];
}

/**
 * The articles that may answer a question, best first, each with its relevant passage and calibrated confidence.
 * A short follow-up ("and how long does that take?") is also read together with the customer's previous question,
 * and whichever reading the knowledge base answers more confidently wins.
 */
export function findCandidates(
  index: SearchIndex,
  orgSlug: string,
  question: string,
  conversation: ConversationTurn[] = [],
  readings: Readings = new Map(),
): Candidate[] {
  if (index.articles.length === 0) return [];
  const direct = rank(index, orgSlug, question, readings);
  const [, withPrevious] = readingsOf(question, conversation);
  if (!withPrevious) return direct;
  const withContext = rank(index, orgSlug, withPrevious, readings);
  return (withContext[0]?.confidence ?? 0) > (direct[0]?.confidence ?? 0) ? withContext : direct;
}
