import { type Passage, splitPassages, splitSentences } from "./passages.ts";
import { type SentenceVectors, sentenceQuery, sentenceSimilarity } from "./sentences.ts";
import { baseForm, contentWords, isStopWord, stem, words } from "./text.ts";
import type { WordVectors } from "./word-vectors.ts";
import { type Lexicon, lexicon } from "./wordnet.ts";

/** A published article as retrieval sees it. */
export interface KbArticle {
  id: string;
  title: string;
  slug: string;
  body: string;
  questions: string[];
}

type UnitKind = "title" | "question" | "sentence" | "article";

/**
 * One thing a question can match: an article's title, one of its alternative phrasings, one sentence of its body
 * (read with its heading), or the whole article at once. Sentences rather than whole passages, so a long paragraph is
 * not diluted; the answer still quotes the whole passage the sentence belongs to. The whole-article unit gathers the
 * words a customer uses that are spread over several sparse phrasings ("how much", "money", "account").
 */
interface Unit {
  article: number;
  kind: UnitKind;
  /** Index into the article's passages, for sentence units. */
  passage: number;
  /** Index into the passage's sentences (`splitSentences` of its text), for sentence units. */
  sentence: number;
  /** Term -> tf weight (1 + ln tf). */
  terms: Map<string, number>;
  /** Length of the weighted term vector, for cosine. */
  norm: number;
  /** Unit-length meaning vector (weighted mean of word vectors), or null when no word of the unit has a vector. */
  vector: Float32Array | null;
  /** Length of the unit's character-trigram tf-idf vector; 0 when it has none (or `ngramWeight` is off). */
  gramNorm: number;
}

export interface IndexedArticle extends KbArticle {
  passages: Passage[];
}

export interface SearchIndex {
  articles: IndexedArticle[];
  units: Unit[];
  /** Term -> weight: inverse document frequency over articles. */
  weight: Map<string, number>;
  /** Term -> units containing it. */
  postings: Map<string, number[]>;
  /** Inverse document frequency of a term no article uses. */
  unknownIdf: number;
  vectors: WordVectors | null;
  /**
   * What the sentence encoder reads of each unit: its text for a title, phrasing or sentence; "" for the whole-article
   * unit, whose sentence vector is the mean of the article's others (sentences.ts).
   */
  texts: string[];
  /** The units' sentence vectors, once the encoder has read them (null until then, or without the encoder). */
  sentences: SentenceVectors | null;
  /** The direction every averaged sentence vector shares, removed so similarity reflects meaning, not "English". */
  common: Float32Array | null;
  /** Every word the knowledge base uses, for spelling tolerance. */
  vocabulary: Set<string>;
  /** Character trigram -> idf over articles. */
  gramWeight: Map<string, number>;
  /**
   * Character trigram -> the units containing it, each with its share of the unit's normalised trigram vector
   * (tf x idf / length): only the postings are kept, not each unit's trigrams.
   */
  gramPostings: Map<string, { units: number[]; values: number[] }>;
}

/**
 * Tuning of retrieval, chosen on the validation split of the benchmark (docs/decisions/2026-11-23-ai-retrieval-and-
 * confidence.md; expansion, spelling, the article unit, irregular forms and trigrams in 2026-11-25-ai-quality.md, with
 * every value tried).
 */
export const RETRIEVAL = {
  /** Share of the lexical (tf-idf) similarity in a unit's score; the rest is the word-vector similarity. */
  lexicalWeight: 0.6,
  /** A body sentence is written to explain, not to ask, so a match there counts a little less than a phrasing. */
  sentenceFactor: 0.9,
  /** Smoothing of the frequency weighting of word vectors (SIF): lower trusts rare words more. */
  sifA: 1e-3,
  /**
   * Same smoothing for a word's rarity in English ("does" ~0.2, "refund" ~0.95), which weighs a question word no
   * article uses: an unknown "does" hardly matters, an unknown "warranty" means the question is about something else.
   * Words the knowledge base uses are weighed by their idf across its articles alone.
   */
  rarityA: 1e-4,
  /** An article's score adds this share of the mean of its next best units (agreement of several phrasings). */
  supportWeight: 0.5,
  supportUnits: 5,
  /**
   * Query expansion from WordNet: a synonym of a question's word that the knowledge base uses joins the question at
   * this share of the word's weight (a broader term at half of it). 0 turns expansion off.
   */
  expansionWeight: 0.6,
  /**
   * Spelling tolerance: a question word the knowledge base does not use, and that is not a common English word
   * (beyond this frequency rank of the word vectors, or unknown to them), is read as the knowledge base's word one
   * typing slip away ("paymet" as "payment"); 0 turns it off.
   */
  spellingRank: 30_000,
  /** Weight of a unit made of the whole article (title, phrasings and body together); 0 leaves it out. */
  articleFactor: 1.2,
  /** Irregular inflections read as their base form before stemming ("paid" as "pay"); 0 turns it off. */
  irregular: 1,
  /**
   * Share of character-trigram similarity (of content words, tf-idf over articles) in the lexical similarity: it
   * relates forms the stemmer keeps apart ("fraud" and "fraudulent") and slips beyond spelling tolerance's reach
   * ("fradulent" is three edits from "fraud"). 0 turns it off. Chosen on val: 2026-11-25-ai-quality.md.
   */
  ngramWeight: 0.1,
  /**
   * Share of the sentence encoder's similarity in a unit's score, when the encoder has read the knowledge base and
   * the question; the words' blend above keeps the rest. 0 turns it off. Chosen on val: 2026-11-25-sentence-encoder.md.
   */
  sentenceWeight: 0.4,
};

/** Character trigrams of the content words of a text, word boundaries marked. */
function trigrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of contentWords(text)) {
    const padded = ` ${w} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const g = padded.slice(i, i + 3);
      out.set(g, (out.get(g) ?? 0) + 1);
    }
  }
  return out;
}

export interface QueryTerms {
  terms: Map<string, number>;
  vector: Float32Array | null;
  /** The sentence encoder's vector of the question, when both it and the index's are there (else null). */
  sentence: Float32Array | null;
  /** The encoder that made that vector and the index's (null without one): confidence has a calibration for each. */
  encoder: string | null;
  /** How much of the question's weight the knowledge base has words for (0..1). */
  coverage: number;
  /** How many words of the question say what it is about (not stop words). */
  words: number;
  /**
   * The terms of those words and of the related words expansion added (not stop words either), each with its weight
   * in the question times the word's rarity in English ("will" next to nothing, "arrive" most of it): what the
   * question is about, for telling which sentence of an article answers it (candidates.ts), never for ranking.
   */
  topic: Map<string, number>;
  /** Character trigrams of the question's content words (when `ngramWeight` is on). */
  grams?: Map<string, number>;
}

export interface Hit {
  article: number;
  /** Ranking score: the best unit blended with the support of the article's next best units. */
  score: number;
  /** The best unit, and its blended, lexical and semantic similarity to the question. */
  unit: number;
  best: number;
  lexical: number;
  semantic: number;
  /**
   * The same score and best unit's similarity with the encoder's plain cosine instead of the centred one, and the
   * highest such score of any other article: how well the article matches the question in absolute terms, which is
   * what confidence reads. Equal to `score` and `best` without the encoder.
   */
  absolute: { score: number; best: number; rival: number };
  /** The index has sentence vectors but not yet the article's best unit's (it was just added or edited). */
  pending: boolean;
}

const tf = (n: number) => 1 + Math.log(n);

/** The index term of a word: its stem, irregular forms read as their base form first. */
const termOf = (word: string) => stem(RETRIEVAL.irregular > 0 ? baseForm(word) : word);

/** Zipf's law: the probability of the word at a frequency rank, in a vocabulary of the given size. */
const zipf = (rank: number, vocabulary: number) => 1 / ((rank + 1) * Math.log(1.78 * vocabulary));

/**
 * Smooth inverse frequency (Arora et al., 2017): a / (a + p(word)). Near 0 for "the", near 1 for rare words. A word
 * the vectors do not know is rarer than any they know.
 */
function sif(word: string, wv: WordVectors | null, a: number): number {
  if (!wv) return 1;
  // The vectors leave out "i", "a" and contractions ("i'm", "don't"): they are among the most frequent words, not rare.
  const rank =
    wv.rows.get(word) ?? wv.rows.get(word.replaceAll("'", "")) ?? (isStopWord(word) ? COMMON_RANK : undefined);
  return rank === undefined ? 1 : a / (a + zipf(rank, wv.rows.size));
}

/** The frequency rank given to a stop word the vectors do not have. */
const COMMON_RANK = 20;

interface TermInfo {
  count: number;
  rarity: number;
}

/**
 * Stems and adjacent stem pairs of every word, each with its rarity in English. Stop words stay in: rarity and idf
 * make them weigh little, and in short questions they carry meaning ("call me" is not "call you"). Pairs keep some
 * word order.
 */
function termInfo(text: string, wv: WordVectors | null): Map<string, TermInfo> {
  const info = new Map<string, TermInfo>();
  const add = (term: string, rarity: number) => {
    const seen = info.get(term);
    if (seen) {
      seen.count++;
      seen.rarity = Math.max(seen.rarity, rarity);
    } else info.set(term, { count: 1, rarity });
  };
  let previous: { stem: string; rarity: number } | null = null;
  for (const w of words(text)) {
    const s = termOf(w);
    const rarity = sif(w, wv, RETRIEVAL.rarityA);
    add(s, rarity);
    if (previous) add(`${previous.stem} ${s}`, Math.max(previous.rarity, rarity));
    previous = { stem: s, rarity };
  }
  return info;
}

function meaningVector(text: string, wv: WordVectors, common: Float32Array | null): Float32Array | null {
  let list = contentWords(text);
  if (list.length === 0) list = words(text);
  const dims = wv.dimensions;
  const sum = new Float32Array(dims);
  let any = false;
  for (const w of list) {
    const row = wv.rows.get(w) ?? wv.rows.get(w.replaceAll("'", ""));
    if (row === undefined) continue;
    const weight = RETRIEVAL.sifA / (RETRIEVAL.sifA + zipf(row, wv.rows.size));
    const offset = row * dims;
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] ?? 0) + weight * (wv.vectors[offset + d] ?? 0);
    any = true;
  }
  if (!any) return null;
  if (common) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += (sum[d] ?? 0) * (common[d] ?? 0);
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] ?? 0) - dot * (common[d] ?? 0);
  }
  return normalize(sum);
}

function normalize(v: Float32Array): Float32Array | null {
  let n = 0;
  for (let d = 0; d < v.length; d++) n += (v[d] ?? 0) ** 2;
  if (n === 0) return null;
  const inv = 1 / Math.sqrt(n);
  for (let d = 0; d < v.length; d++) v[d] = (v[d] ?? 0) * inv;
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += (a[d] ?? 0) * (b[d] ?? 0);
  return s;
}

/**
 * The direction shared by sentence vectors of English in general: the frequency-weighted mean of the common
 * vocabulary. Removing it from every vector (the second half of SIF) keeps "how do I" from making everything alike.
 */
let sharedDirection: { of: WordVectors; v: Float32Array | null } | undefined;
function commonDirection(wv: WordVectors): Float32Array | null {
  if (sharedDirection?.of === wv) return sharedDirection.v;
  const dims = wv.dimensions;
  const sum = new Float32Array(dims);
  const n = Math.min(wv.rows.size, 20_000);
  for (let row = 0; row < n; row++) {
    const p = zipf(row, wv.rows.size);
    const weight = (p * RETRIEVAL.sifA) / (RETRIEVAL.sifA + p);
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] ?? 0) + weight * (wv.vectors[row * dims + d] ?? 0);
  }
  const v = normalize(sum);
  sharedDirection = { of: wv, v };
  return v;
}

export function buildIndex(input: KbArticle[], vectors: WordVectors | null): SearchIndex {
  const common = vectors ? commonDirection(vectors) : null;
  const articles: IndexedArticle[] = input.map((a) => ({ ...a, passages: splitPassages(a.body) }));
  const units: Omit<Unit, "norm" | "gramNorm">[] = [];
  const texts: string[] = [];
  const unitGrams: Map<string, number>[] = [];
  const vocabulary = new Set<string>();
  const add = (article: number, kind: UnitKind, passage: number, text: string, sentence = -1) => {
    const info = termInfo(text, vectors);
    if (info.size === 0) return;
    const terms = new Map<string, number>();
    for (const [t, { count }] of info) terms.set(t, tf(count));
    for (const w of words(text)) vocabulary.add(w);
    unitGrams.push(RETRIEVAL.ngramWeight > 0 ? trigrams(text) : new Map());
    units.push({
      article,
      kind,
      passage,
      sentence,
      terms,
      vector: vectors ? meaningVector(text, vectors, common) : null,
    });
    texts.push(kind === "article" ? "" : text);
  };
  articles.forEach((a, i) => {
    add(i, "title", -1, a.title);
    for (const q of a.questions) add(i, "question", -1, q);
    a.passages.forEach((p, j) => {
      splitSentences(p.text).forEach((sentence, k) => {
        add(i, "sentence", j, p.heading ? `${p.heading}: ${sentence}` : sentence, k);
      });
    });
    if (RETRIEVAL.articleFactor > 0)
      add(i, "article", -1, [a.title, ...a.questions, ...a.passages.map((p) => p.text)].join("\n"));
  });

  // Document frequency over articles: a word every phrasing of one article uses is still specific to that article.
  const df = new Map<string, Set<number>>();
  const postings = new Map<string, number[]>();
  units.forEach((u, id) => {
    for (const t of u.terms.keys()) {
      const set = df.get(t) ?? new Set<number>();
      set.add(u.article);
      df.set(t, set);
      const list = postings.get(t) ?? [];
      list.push(id);
      postings.set(t, list);
    }
  });
  const n = Math.max(articles.length, 1);
  const weight = new Map<string, number>();
  for (const [t, set] of df) weight.set(t, Math.log(1 + n / set.size));
  const gramDf = new Map<string, Set<number>>();
  unitGrams.forEach((grams, id) => {
    for (const g of grams.keys()) {
      const set = gramDf.get(g) ?? new Set<number>();
      set.add(units[id]?.article ?? -1);
      gramDf.set(g, set);
    }
  });
  const gramWeight = new Map<string, number>();
  for (const [g, set] of gramDf) gramWeight.set(g, Math.log(1 + n / set.size));
  const gramNorms = unitGrams.map((grams) => {
    let sq = 0;
    for (const [g, c] of grams) sq += (tf(c) * (gramWeight.get(g) ?? 0)) ** 2;
    return Math.sqrt(sq);
  });
  const gramPostings = new Map<string, { units: number[]; values: number[] }>();
  unitGrams.forEach((grams, id) => {
    const norm = gramNorms[id] ?? 0;
    if (norm === 0) return;
    for (const [g, c] of grams) {
      const posting = gramPostings.get(g) ?? { units: [], values: [] };
      posting.units.push(id);
      posting.values.push((tf(c) * (gramWeight.get(g) ?? 0)) / norm);
      gramPostings.set(g, posting);
    }
  });
  const normed: Unit[] = units.map((u, id) => {
    let sq = 0;
    for (const [t, w] of u.terms) sq += (w * (weight.get(t) ?? 0)) ** 2;
    return { ...u, norm: Math.sqrt(sq), gramNorm: gramNorms[id] ?? 0 };
  });
  return {
    gramWeight,
    gramPostings,
    articles,
    units: normed,
    weight,
    postings,
    unknownIdf: Math.log(1 + 2 * n),
    vectors,
    common,
    vocabulary,
    texts,
    sentences: null,
  };
}

/** Edit distance of two words with adjacent transpositions, or `max + 1` once it is certainly beyond `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

/**
 * The question with its typing slips corrected to words the knowledge base uses: one slip in a word of four to seven
 * letters, two in a longer one, and only for words that are not themselves common English ("form" stays "form").
 * Among equally close words, the more common one in English wins.
 */
export function correctSpelling(index: SearchIndex, text: string): string {
  if (RETRIEVAL.spellingRank <= 0) return text;
  const wv = index.vectors;
  return text.replace(/[\p{L}]+(?:['’][\p{L}]+)*/gu, (original) => {
    const word = original.toLowerCase();
    if (word.length < 4 || index.vocabulary.has(word) || isStopWord(word)) return original;
    const rank = wv?.rows.get(word);
    if (rank !== undefined && rank < RETRIEVAL.spellingRank) return original;
    const max = word.length >= 8 ? 2 : 1;
    let best: { word: string; distance: number; rank: number } | null = null;
    for (const candidate of index.vocabulary) {
      if (candidate.length < 3) continue;
      const distance = editDistance(word, candidate, max);
      if (distance > max) continue;
      const candidateRank = wv?.rows.get(candidate) ?? Number.MAX_SAFE_INTEGER;
      if (!best || distance < best.distance || (distance === best.distance && candidateRank < best.rank))
        best = { word: candidate, distance, rank: candidateRank };
    }
    return best ? best.word : original;
  });
}

/**
 * The question as retrieval reads it. `sentence` is the encoder's vector of the question as asked (sentence-
 * encoder.ts); it counts only when the index has its units' vectors too.
 */
export function queryTerms(
  index: SearchIndex,
  question: string,
  lex: Lexicon | null = lexicon(),
  sentence: Float32Array | null = null,
): QueryTerms {
  const text = correctSpelling(index, question);
  const terms = new Map<string, number>();
  let known = 0;
  let total = 0;
  for (const [t, { count, rarity }] of termInfo(text, index.vectors)) {
    // A word no article uses still counts against every match, as much as its rarity says it matters.
    const w = tf(count) * (index.weight.get(t) ?? index.unknownIdf * rarity);
    terms.set(t, w);
    total += w;
    if (index.weight.has(t)) known += w;
  }
  const topic = new Map<string, number>();
  const about = (word: string, term: string) => {
    const w = (terms.get(term) ?? 0) * sif(word, index.vectors, RETRIEVAL.rarityA);
    if (w > (topic.get(term) ?? 0)) topic.set(term, w);
  };
  for (const word of contentWords(text)) about(word, termOf(word));
  // Related words the knowledge base uses join the question, weighted less; coverage still counts its own words.
  if (lex && RETRIEVAL.expansionWeight > 0) {
    const original = new Set(terms.keys());
    for (const word of contentWords(text)) {
      const own = terms.get(termOf(word)) ?? 0;
      for (const [related, relation] of lex.related(word)) {
        // A two-word name ("european union") is the index's pair of adjacent stems.
        const t = related.split(" ").map(termOf).join(" ");
        const idf = index.weight.get(t);
        if (idf === undefined || original.has(t)) continue;
        const w = RETRIEVAL.expansionWeight * relation * Math.min(own, idf);
        if (w > (terms.get(t) ?? 0)) terms.set(t, w);
        if (!isStopWord(related) && !related.includes(" ")) about(related, t);
      }
    }
  }
  const vector = index.vectors ? meaningVector(text, index.vectors, index.common) : null;
  // A vector of another length than the index's is another encoder's: never compared (ai.service.ts filters too).
  const useSentence =
    index.sentences !== null &&
    sentence !== null &&
    sentence.length === index.sentences.dimensions &&
    RETRIEVAL.sentenceWeight > 0;
  return {
    terms,
    vector,
    sentence: useSentence ? sentence : null,
    encoder: useSentence ? (index.sentences?.encoder ?? null) : null,
    coverage: total > 0 ? known / total : 0,
    words: contentWords(text).length,
    topic,
    grams: RETRIEVAL.ngramWeight > 0 ? trigrams(text) : undefined,
  };
}

export interface UnitScores {
  score: Float64Array;
  /** The score with the encoder's plain cosine (see Hit.absolute); the same array as `score` without the encoder. */
  absolute: Float64Array;
  lexical: Float64Array;
  semantic: Float64Array;
}

/** Similarity of the question to every unit: weighted term cosine blended with word-vector cosine. */
export function unitScores(index: SearchIndex, query: QueryTerms): UnitScores {
  const n = index.units.length;
  const lexical = new Float64Array(n);
  const semantic = new Float64Array(n);
  const score = new Float64Array(n);
  let qNorm = 0;
  for (const [t, w] of query.terms) {
    qNorm += w * w;
    const weight = index.weight.get(t);
    if (weight === undefined) continue;
    for (const id of index.postings.get(t) ?? []) {
      const unit = index.units[id];
      if (unit) lexical[id] = (lexical[id] ?? 0) + w * (unit.terms.get(t) ?? 0) * weight;
    }
  }
  qNorm = Math.sqrt(qNorm);
  // Trigram cosine: the postings hold each unit's normalised weights, so only the question's length is left.
  const gramDot = new Float64Array(query.grams ? n : 0);
  let gNorm = 0;
  for (const [g, c] of query.grams ?? []) {
    const w = index.gramWeight.get(g);
    const posting = index.gramPostings.get(g);
    if (w === undefined || !posting) continue;
    const q = tf(c) * w;
    gNorm += q * q;
    posting.units.forEach((id, k) => {
      gramDot[id] = (gramDot[id] ?? 0) + q * (posting.values[k] ?? 0);
    });
  }
  gNorm = Math.sqrt(gNorm);
  const lw = RETRIEVAL.lexicalWeight;
  const sentence = query.sentence && index.sentences ? sentenceQuery(index.sentences, query.sentence) : null;
  // Without the encoder the two scores are one, and one array says so (search then ranks articles once).
  const absolute = sentence ? new Float64Array(n) : score;
  index.units.forEach((unit, id) => {
    let lex = qNorm > 0 && unit.norm > 0 ? (lexical[id] ?? 0) / (qNorm * unit.norm) : 0;
    if (query.grams && unit.gramNorm) {
      const g = gNorm > 0 ? (gramDot[id] ?? 0) / gNorm : 0;
      lex = (1 - RETRIEVAL.ngramWeight) * lex + RETRIEVAL.ngramWeight * g;
    }
    const sem = query.vector && unit.vector ? Math.max(0, dot(query.vector, unit.vector)) : 0;
    // Without word vectors (package missing, or no known word) the lexical part stands alone.
    const semShare = query.vector && unit.vector ? 1 - lw : 0;
    const words = (lex * lw + sem * semShare) / (lw + semShare);
    let value = words;
    let plain = words;
    // A unit not encoded yet (its article was just added or edited) is read from its words alone meanwhile.
    if (sentence && index.sentences && (index.sentences.norms[id] ?? 0) > 0) {
      const meaning = sentenceSimilarity(index.sentences, id, sentence);
      const ws = RETRIEVAL.sentenceWeight;
      value = (1 - ws) * words + ws * Math.max(0, meaning.centred);
      plain = (1 - ws) * words + ws * Math.max(0, meaning.plain);
    }
    const factor =
      unit.kind === "sentence" ? RETRIEVAL.sentenceFactor : unit.kind === "article" ? RETRIEVAL.articleFactor : 1;
    lexical[id] = lex;
    semantic[id] = sem;
    score[id] = value * factor;
    absolute[id] = plain * factor;
  });
  return { score, absolute, lexical, semantic };
}

/**
 * Articles ranked for a question, best first, by their score with the encoder's centred cosine; each with its
 * absolute match (the plain cosine), which confidence reads.
 */
export function search(index: SearchIndex, scores: UnitScores, limit = 5): Hit[] {
  const { score, absolute, lexical, semantic } = scores;
  const ranked = articleScores(index, score);
  const plain = absolute === score ? ranked : articleScores(index, absolute);
  // The two best absolute scores, for each article's rival (the best of the others).
  let first = -1;
  let second = -1;
  plain.forEach((entry, article) => {
    if (!entry) return;
    if (first < 0 || entry.score > (plain[first]?.score ?? 0)) {
      second = first;
      first = article;
    } else if (second < 0 || entry.score > (plain[second]?.score ?? 0)) second = article;
  });
  const hits: Hit[] = [];
  ranked.forEach((entry, article) => {
    const own = plain[article];
    if (!entry || !own) return;
    const rival = plain[article === first ? second : first]?.score ?? 0;
    hits.push({
      article,
      score: entry.score,
      unit: entry.unit,
      best: score[entry.unit] ?? 0,
      lexical: lexical[entry.unit] ?? 0,
      semantic: semantic[entry.unit] ?? 0,
      absolute: { score: own.score, best: absolute[own.unit] ?? 0, rival },
      pending: index.sentences !== null && (index.sentences.norms[own.unit] ?? 0) === 0,
    });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * Each article's score from its units' scores: its best unit, blended with the mean of its next best units (several
 * phrasings of one article agreeing is stronger evidence than one lucky match). Indexed by article.
 */
function articleScores(index: SearchIndex, score: Float64Array): { unit: number; score: number }[] {
  const perArticle: { best: number; others: number[] }[] = [];
  index.units.forEach((unit, id) => {
    const value = score[id] ?? 0;
    const entry = perArticle[unit.article];
    if (!entry) perArticle[unit.article] = { best: id, others: [] };
    else if (value > (score[entry.best] ?? 0)) {
      entry.others.push(score[entry.best] ?? 0);
      entry.best = id;
    } else entry.others.push(value);
  });
  return perArticle.map((entry) => {
    const support = entry.others.sort((a, b) => b - a).slice(0, RETRIEVAL.supportUnits);
    const mean = support.reduce((s, x) => s + x, 0) / RETRIEVAL.supportUnits;
    const best = score[entry.best] ?? 0;
    return { unit: entry.best, score: best * (1 - RETRIEVAL.supportWeight) + mean * RETRIEVAL.supportWeight };
  });
}

/** A sentence of an article's body (or a list item, a table row) and how well it matches the question. */
export interface SentenceScore {
  /** The sentence's unit in the index. */
  unit: number;
  passage: number;
  /** Index into the passage's sentences (`splitSentences` of its text). */
  sentence: number;
  /** The sentence as retrieval read it, without its heading. */
  text: string;
  score: number;
}

/** Each passage's sentences, split once per index (only for the articles an answer is chosen from). */
const passageSentences = new WeakMap<Passage, string[]>();
function sentencesOf(passage: Passage): string[] {
  let sentences = passageSentences.get(passage);
  if (!sentences) {
    sentences = splitSentences(passage.text);
    passageSentences.set(passage, sentences);
  }
  return sentences;
}

/** How well each sentence of an article's body matches the question, in the article's order. */
export function sentenceMatches(index: SearchIndex, scores: UnitScores, article: number): SentenceScore[] {
  const passages = index.articles[article]?.passages ?? [];
  const sentences = passages.map(sentencesOf);
  const out: SentenceScore[] = [];
  index.units.forEach((unit, id) => {
    if (unit.article !== article || unit.kind !== "sentence") return;
    const text = sentences[unit.passage]?.[unit.sentence] ?? "";
    out.push({ unit: id, passage: unit.passage, sentence: unit.sentence, text, score: scores.score[id] ?? 0 });
  });
  return out;
}
