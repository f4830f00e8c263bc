import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { contentWords, stem, words } from "./text.ts";

/** A logged question the assistant could not answer well. */
export interface AskedQuestion {
  question: string;
  handoff: boolean;
  createdAt: Date;
}

export interface QuestionGroup {
  /** The wording asked most often (the latest among equals). */
  question: string;
  count: number;
  /** Distinct wordings, most asked first. */
  questions: string[];
  lastAskedAt: Date;
  handedOff: number;
}

/** Two questions ask the same thing when this share of their content-word stems is shared (Jaccard). */
export const SAME_QUESTION = 0.5;

/** The words that make a question what it is: stems of its content words ("Where's my parcel?" -> parcel). */
export function keyTerms(question: string): Set<string> {
  const content = contentWords(question);
  return new Set((content.length > 0 ? content : words(question)).map(stem));
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Case, spacing and final punctuation do not make a new wording. */
export const sameWording = (a: string, b: string) => wording(a) === wording(b);

const wording = (question: string) =>
  question
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s?.!]+$/, "")
    .trim();

interface Cluster {
  terms: Set<string>;
  wordings: Map<string, { text: string; count: number; last: Date }>;
  count: number;
  handedOff: number;
  last: Date;
}

/**
 * Groups questions that ask the same thing: the same content words in any order or form ("parcel to Canada?",
 * "Parcels to canada"), or mostly the same ones (at least SAME_QUESTION of them shared with the group's first
 * question). Larger groups first, then the most recently asked.
 */
export function groupQuestions(asked: AskedQuestion[], limit = 50): QuestionGroup[] {
  // Most recent first, so each group's key and displayed wording lean to how customers ask now.
  const sorted = [...asked].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const clusters: Cluster[] = [];
  // The same words are asked again and again (a report's range holds up to 2,000 questions, most of them a few
  // wordings): each distinct text's key terms and wording are worked out once.
  const known = new Map<string, { terms: Set<string>; key: string }>();
  for (const q of sorted) {
    const text = q.question.trim();
    if (!text) continue;
    let seenText = known.get(text);
    if (!seenText) {
      seenText = { terms: keyTerms(text), key: wording(text) };
      known.set(text, seenText);
    }
    const { terms, key } = seenText;
    let best: Cluster | undefined;
    let bestScore = SAME_QUESTION;
    for (const c of clusters) {
      const score = jaccard(terms, c.terms);
      if (score >= bestScore && (!best || score > bestScore)) {
        best = c;
        bestScore = score;
      }
    }
    if (!best) {
      best = { terms, wordings: new Map(), count: 0, handedOff: 0, last: q.createdAt };
      clusters.push(best);
    }
    best.count++;
    if (q.handoff) best.handedOff++;
    if (q.createdAt > best.last) best.last = q.createdAt;
    const seen = best.wordings.get(key);
    if (seen) seen.count++;
    else best.wordings.set(key, { text, count: 1, last: q.createdAt });
  }
  return clusters
    .sort((a, b) => b.count - a.count || b.last.getTime() - a.last.getTime())
    .slice(0, limit)
    .map((c) => {
      const wordings = [...c.wordings.values()].sort(
        (a, b) => b.count - a.count || b.last.getTime() - a.last.getTime(),
      );
      return {
        question: wordings[0]?.text ?? "",
        count: c.count,
        questions: wordings.slice(0, KB_QUESTIONS_MAX).map((w) => w.text),
        lastAskedAt: c.last,
        handedOff: c.handedOff,
      };
    });
}
