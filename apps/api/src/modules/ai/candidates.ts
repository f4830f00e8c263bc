import type { ConversationTurn } from "@cove/contract/ai.ts";
import { helpArticlePath } from "@cove/contract/kb.ts";
import { askedFact, statesFact } from "./asked-fact.ts";
import { confidenceOf, signalsOf } from "./confidence.ts";
import { excerpt, excerptAround, introduced } from "./passages.ts";
import type { Candidate } from "./provider.ts";
import {
  type QueryTerms,
  queryTerms,
  type SearchIndex,
  type SentenceScore,
  search,
  sentenceMatches,
  type UnitScores,
  unitScores,
} from "./retrieval.ts";
import { contentWords } from "./text.ts";

/** Articles offered to a provider: the best and two runners-up (for further reading and for a model to weigh). */
const CANDIDATES = 3;
/** A lead shorter than this reads better with the passage that follows it. */
const SHORT_PASSAGE = 40;
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
 * Of the sentences that state the kind of fact a question asks for (a price for "how much", a span of time for "how
 * long": asked-fact.ts), the best is quoted rather than the best of all when it matches the question at least this
 * share as well: an article's opening shares the question's words ("rent", "e-bike", "weekend") without its answer.
 */
const FACT_SHARE = 0.4;
/**
 * The article's lead goes before the matched passage when it matches the question at least this share as well (and
 * states the asked kind of fact, if the question asks for one): it is then part of the answer, not just the opening.
 */
const LEAD_SHARE = 0.75;
/** Sentences whose scores are this close match about as well (the margin the lead once needed to be joined). */
const NEAR_TIE = 0.02;

/**
 * A sentence of the article as the answer is chosen from: its retrieval score, read with its list's lead-in or its
 * table's header when it is an item or a row ("Weekend: $110" under "Prices per bike:"), and the share of what the
 * question is about (QueryTerms.topic: its words, not "will" or "my") that it and that lead-in use.
 */
interface Reading extends SentenceScore {
  match: number;
  covers: number;
}

function readSentences(index: SearchIndex, query: QueryTerms, scores: UnitScores, article: number): Reading[] {
  const passages = index.articles[article]?.passages ?? [];
  const sentences = sentenceMatches(index, scores, article);
  let total = 0;
  for (const w of query.topic.values()) total += w;
  return sentences.map((s) => {
    const passage = passages[s.passage];
    const intro =
      s.sentence > 0 && passage && introduced(passage)
        ? sentences.find((o) => o.passage === s.passage && o.sentence === 0)
        : undefined;
    const own = index.units[s.unit]?.terms;
    const context = intro ? index.units[intro.unit]?.terms : undefined;
    let covered = 0;
    for (const [t, w] of query.topic) if (own?.has(t) || context?.has(t)) covered += w;
    return { ...s, match: Math.max(s.score, intro?.score ?? 0), covers: total > 0 ? covered / total : 0 };
  });
}

/** The item with the highest first value, the next values deciding its ties; the earlier item wins a full tie. */
function bestBy<T>(list: T[], ...values: ((r: T) => number)[]): T | undefined {
  let best: T | undefined;
  for (const r of list) {
    if (best === undefined) best = r;
    else
      for (const value of values) {
        const [a, b] = [value(r), value(best)];
        if (a !== b) {
          if (a > b) best = r;
          break;
        }
      }
  }
  return best;
}

/**
 * The Markdown an answer quotes: the passage of the sentence (list item, table row) that matches the question best,
 * not the article's opening. When the question asks for a kind of fact (a price, a span of time, an age, a place:
 * asked-fact.ts), the sentence that states one and shares most of the question's words is preferred, so "How much is
 * a weekend rental?" quotes the price list, not "We rent e-bikes by the day or the weekend". The article's lead goes
 * before it only when the lead matches nearly as well. Never the whole article. Which passage is decided on their
 * plain text; what is quoted is their Markdown, a long passage around the matched sentence.
 */
function answerPassage(index: SearchIndex, query: QueryTerms, scores: UnitScores, article: number, question: string) {
  const passages = index.articles[article]?.passages ?? [];
  const [first, second] = passages;
  if (!first) return "";
  // A lead shorter than a sentence, or one that announces what follows, is read with the passage after it.
  const short = second && (first.text.length < SHORT_PASSAGE || ANNOUNCES.test(first.text));
  const leadEnd = short ? 2 : 1;
  const lead = short ? `${first.markdown}\n\n${second.markdown}` : first.markdown;
  const sentences = readSentences(index, query, scores, article);
  const best = bestBy(sentences, (s) => s.match);
  const kind = askedFact(question);
  const floor = FACT_SHARE * (best?.match ?? 0);
  const stating = kind ? sentences.filter((s) => s.match >= floor && statesFact(kind, s.text)) : [];
  const factual = bestBy(
    stating,
    (s) => s.covers,
    (s) => s.match,
  );
  // Short sentences score high on one shared word ("Never use a stove inside a tent."): of sentences that match
  // about as well, the one that uses more of what the question is about answers it.
  const near = sentences.filter((s) => s.match >= (best?.match ?? 0) - NEAR_TIE);
  const closest = bestBy(
    near,
    (s) => s.covers,
    (s) => s.match,
  );
  const answer = factual ?? closest;
  if (!answer || answer.passage < leadEnd) {
    return leadEnd === 1
      ? excerptAround(lead, answer?.text ?? "", LEAD_CHARS + DETAIL_CHARS)
      : excerpt(lead, LEAD_CHARS + DETAIL_CHARS);
  }
  const passage = passages[answer.passage];
  if (!passage) return excerpt(lead, LEAD_CHARS + DETAIL_CHARS);
  const text = excerptAround(passage.markdown, answer.text, DETAIL_CHARS);
  // A heading introduces a list or table on a line of its own, and runs into a paragraph.
  const lines = text.includes("\n");
  const heading =
    passage.heading && passage.heading !== first.heading ? `${passage.heading}:${lines ? "\n" : " "}` : "";
  // When the answer is a fact of the kind asked for, a lead that states none is an opening, not part of the answer.
  const fact = factual ? kind : null;
  const leadMatch = bestBy(
    sentences.filter((s) => s.passage < leadEnd && (!fact || statesFact(fact, s.text))),
    (s) => s.score,
  );
  const withLead = leadMatch !== undefined && leadMatch.score >= LEAD_SHARE * answer.match;
  return withLead ? `${excerpt(lead, LEAD_CHARS)}\n\n${heading}${text}` : `${heading}${text}`;
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
      passage: answerPassage(index, query, scores, hit.article, text),
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
