import { createHash } from "node:crypto";
import { embeddingsEndpoint, encoderMark, endpointDimensions, endpointEncoderName } from "./embeddings-endpoint.ts";
import type { SearchIndex } from "./retrieval.ts";
import { activeEncoder, encodeTexts, SENTENCE_DIMENSIONS, SENTENCE_ENCODER_NAME } from "./sentence-encoder.ts";

/**
 * An index's sentence vectors, one row of `dimensions` per unit, stored as bytes: each row scaled so its
 * largest component is 127, with the length of the scaled row kept beside it. Half a kilobyte a unit instead of two,
 * and a cosine that differs from the full-precision one by less than 0.01.
 */
export interface SentenceVectors {
  /**
   * The encoder that made every row (sentence-encoder.ts, activeEncoder): a question's vector is compared with them
   * only when the same encoder made it (ai.service.ts, startReading), never another's.
   */
  encoder: string;
  dimensions: number;
  values: Int8Array;
  norms: Float32Array;
  /**
   * What the knowledge base's texts have in common (the mean of its units' vectors, shrunk for a small knowledge
   * base): similarity is measured after taking it away, so the subject every article shares (banking, a shop) does
   * not make all of them look alike. The rows above stay as encoded, to be reused and stored.
   */
  centre: Float32Array;
  /** Each unit's dot product with the centre, and the length of its vector once the centre is taken away. */
  centreDots: Float32Array;
  centredNorms: Float32Array;
  /** The centre's squared length. */
  centreSquared: number;
  /**
   * How many units have no vector yet (a zero row): their article was added or edited a moment ago and their texts
   * are still being encoded. Retrieval reads them from their words meanwhile; 0 once the index is complete.
   */
  pending: number;
}

/**
 * How much of the knowledge base's mean vector is taken away: n / (n + SHRINK) for n articles. With one article the
 * mean is that article, and taking it all away would leave noise; with fifteen (a CLINC150 domain) it is 0.6.
 * Chosen on val: docs/decisions/2026-11-28-centred-sentence-vectors.md.
 */
export const CENTRE_SHRINK = { articles: 10 };

/** A question's vector as similarity reads it: with its dot product with the centre and its centred length. */
export interface SentenceQuery {
  vector: Float32Array;
  centreDot: number;
  centredNorm: number;
}

/** The question's vector prepared for `sentenceSimilarity` against one index's vectors. */
export function sentenceQuery(vectors: SentenceVectors, vector: Float32Array): SentenceQuery {
  const centreDot = dotRows(vector, vectors.centre);
  const centredNorm = Math.sqrt(Math.max(0, 1 - 2 * centreDot + vectors.centreSquared));
  return { vector, centreDot, centredNorm };
}

function dotRows(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const D = Math.min(a.length, b.length);
  for (let d = 0; d < D; d++) sum += (a[d] ?? 0) * (b[d] ?? 0);
  return sum;
}

/** The encoder's cosine of a unit with the question: as encoded, and with the knowledge base's centre taken away. */
export interface SentenceMatch {
  plain: number;
  centred: number;
}

/**
 * Unit `id`'s cosine with the question, plain and centred; 0 for a unit the encoder had nothing to read in. With u
 * and q of unit length and c the centre, (u - c)·(q - c) = u·q - u·c - q·c + c·c, so the dot product is taken once.
 * The centred cosine ranks a knowledge base's articles against each other; the plain one still says whether the
 * question is about the knowledge base's subject at all, which is what confidence needs (2026-11-28 decision).
 */
export function sentenceSimilarity(vectors: SentenceVectors, id: number, query: SentenceQuery): SentenceMatch {
  const norm = vectors.norms[id] ?? 0;
  if (norm === 0) return { plain: 0, centred: 0 };
  const { values, dimensions: D } = vectors;
  const q = query.vector;
  const offset = id * D;
  let sum = 0;
  for (let d = 0; d < D; d++) sum += (values[offset + d] ?? 0) * (q[d] ?? 0);
  const plain = sum / norm;
  const lengths = (vectors.centredNorms[id] ?? 0) * query.centredNorm;
  const centred =
    lengths > 0 ? (plain - (vectors.centreDots[id] ?? 0) - query.centreDot + vectors.centreSquared) / lengths : 0;
  return { plain, centred };
}

/** One row as bytes, scaled so its largest component is 127 (all zeros for a zero row). */
function quantizeRow(row: Float32Array): Int8Array {
  const D = row.length;
  const out = new Int8Array(D);
  let max = 0;
  for (let d = 0; d < D; d++) max = Math.max(max, Math.abs(row[d] ?? 0));
  if (max > 0) for (let d = 0; d < D; d++) out[d] = Math.round(((row[d] ?? 0) / max) * 127);
  return out;
}

/** Bytes back as a unit-length row, or null for a zero row. */
function unitRow(bytes: Int8Array): Float32Array | null {
  const D = bytes.length;
  let sq = 0;
  for (let d = 0; d < D; d++) sq += (bytes[d] ?? 0) ** 2;
  const norm = Math.sqrt(sq);
  return norm > 0 ? Float32Array.from(bytes.subarray(0, D), (v) => v / norm) : null;
}

/**
 * The rows as bytes, with the centre: the mean of the rows of `centred` units (titles, phrasings and sentences, not
 * the whole-article units, which are means themselves), shrunk by the number of articles.
 */
function quantize(
  rows: Float32Array,
  count: number,
  centred: boolean[],
  articles: number,
  encoder: { name: string; dimensions: number },
): SentenceVectors {
  const D = encoder.dimensions;
  const values = new Int8Array(count * D);
  const norms = new Float32Array(count);
  const centre = new Float32Array(D);
  let n = 0;
  for (let id = 0; id < count; id++) {
    const q = quantizeRow(rows.subarray(id * D, (id + 1) * D));
    values.set(q, id * D);
    let sq = 0;
    for (let d = 0; d < D; d++) sq += (q[d] ?? 0) ** 2;
    norms[id] = Math.sqrt(sq);
    if (!centred[id] || sq === 0) continue;
    const inv = 1 / Math.sqrt(sq);
    for (let d = 0; d < D; d++) centre[d] = (centre[d] ?? 0) + (q[d] ?? 0) * inv;
    n++;
  }
  const shrink = n > 0 ? articles / (articles + CENTRE_SHRINK.articles) / n : 0;
  for (let d = 0; d < D; d++) centre[d] = (centre[d] ?? 0) * shrink;
  const centreSquared = dotRows(centre, centre);
  const centreDots = new Float32Array(count);
  const centredNorms = new Float32Array(count);
  let pending = 0;
  for (let id = 0; id < count; id++) {
    const norm = norms[id] ?? 0;
    if (norm === 0) {
      pending++;
      continue;
    }
    let dot = 0;
    for (let d = 0; d < D; d++) dot += (values[id * D + d] ?? 0) * (centre[d] ?? 0);
    const centreDot = dot / norm;
    centreDots[id] = centreDot;
    centredNorms[id] = Math.sqrt(Math.max(0, 1 - 2 * centreDot + centreSquared));
  }
  return {
    encoder: encoder.name,
    dimensions: D,
    values,
    norms,
    centre,
    centreDots,
    centredNorms,
    centreSquared,
    pending,
  };
}

/** Unit `id`'s vector back as unit-length floats (to reuse it in a rebuilt index). */
function row(vectors: SentenceVectors, id: number): Float32Array | null {
  const norm = vectors.norms[id] ?? 0;
  const D = vectors.dimensions;
  if (norm === 0) return null;
  return Float32Array.from(vectors.values.subarray(id * D, (id + 1) * D), (v) => v / norm);
}

/**
 * Gives the index its sentence vectors: `rows` holds one unit-length row per unit, in the index's order (a zero row
 * for a unit not encoded yet). The whole-article unit (whose text would be the whole article, slow to encode and
 * diluted) gets the normalised mean of its article's other units that have one.
 */
export function attachSentenceVectors(
  index: SearchIndex,
  rows: Float32Array,
  encoder = { name: SENTENCE_ENCODER_NAME, dimensions: SENTENCE_DIMENSIONS },
): void {
  const D = encoder.dimensions;
  const sums = new Map<number, Float32Array>();
  index.units.forEach((unit, id) => {
    if (unit.kind === "article") return;
    const sum = sums.get(unit.article) ?? new Float32Array(D);
    for (let d = 0; d < D; d++) sum[d] = (sum[d] ?? 0) + (rows[id * D + d] ?? 0);
    sums.set(unit.article, sum);
  });
  index.units.forEach((unit, id) => {
    if (unit.kind !== "article") return;
    const sum = sums.get(unit.article);
    if (!sum) return;
    const norm = Math.hypot(...sum);
    if (norm > 0) for (let d = 0; d < D; d++) rows[id * D + d] = (sum[d] ?? 0) / norm;
  });
  const centred = index.units.map((unit) => unit.kind !== "article");
  index.sentences = quantize(rows, index.units.length, centred, index.articles.length, encoder);
}

/** The rows encoded so far of indexes not (yet) fully encoded, by text, with their encoder: a rebuild reuses them. */
const encodedSoFar = new WeakMap<SearchIndex, { encoder: string; rows: Map<string, Float32Array> }>();

/**
 * Where a knowledge base's vectors are kept between restarts and shared between instances (the database: table
 * ai_sentence_vectors), by key (vectorKey). A row's length is its dimension.
 */
export interface VectorStore {
  /** Every vector stored for the knowledge base. */
  load(): Promise<Map<string, Int8Array>>;
  /** Stores the vectors added and drops the stale ones, whose text the knowledge base no longer has. */
  save(added: ReadonlyMap<string, Int8Array>, stale: readonly string[]): Promise<void>;
}

/**
 * A text's key: a hash of the encoder's name and the text. The embedded encoder's keys are as they always were; an
 * embeddings endpoint's model's start with a mark of its name and a dot, so each encoder's stale vectors are told
 * apart, and those of a model no longer configured are dropped.
 */
export const vectorKey = (text: string, encoder = SENTENCE_ENCODER_NAME): string => {
  const hash = createHash("sha256").update(`${encoder}\n${text}`).digest("base64url");
  return encoder === SENTENCE_ENCODER_NAME ? hash : `${encoderMark(encoder)}.${hash}`;
};

/** The mark a stored key's encoder has ("" for the embedded encoder's). */
const markOf = (key: string) => key.slice(0, Math.max(0, key.indexOf(".")));

/** The dimension of the encoder's vectors, when known before any is read (the embedded one; a model once it answered). */
function knownDimensions(encoder: string): number | undefined {
  if (encoder === SENTENCE_ENCODER_NAME) return SENTENCE_DIMENSIONS;
  const endpoint = embeddingsEndpoint();
  return endpoint && endpointEncoderName(endpoint) === encoder ? endpointDimensions(endpoint) : undefined;
}

export interface EncodeOptions {
  /** The previous index of the same knowledge base: it lends the vectors of every unit that did not change. */
  previous?: SearchIndex | null;
  /** False once the index is no longer needed (it was replaced): its work stops before the next chunk. */
  wanted?: () => boolean;
  /** Vectors stored earlier are read from it, and the ones encoded now are saved to it (in the background). */
  store?: VectorStore;
  /**
   * Called once the vectors that could be lent or read back are attached (or there were none), before anything is
   * encoded: from then on a question is answered with them, never waiting for the encoder.
   */
  lent?: () => void;
}

/** While an index's missing texts are encoded, its vectors are attached again after every this many of them. */
const ATTACH_EVERY = 64;

/**
 * Encodes the index's units and attaches their vectors. A unit's vector comes from the previous index of the same
 * knowledge base when it had (or, replaced halfway, had already encoded) the same text, else from the store, else
 * from the encoder: editing one article re-encodes that article's units only, however often articles change, and a
 * restart encodes nothing that was stored. What was lent or read back is attached at once, so questions are answered
 * with it while the rest is encoded (those units are read from their words meanwhile); the texts the previous index
 * did not have (an edit) are encoded first, at the encoder's edit priority, and the vectors are attached again as
 * they come. Resolves how many texts were encoded, or null when the encoder is unavailable or the index is no longer
 * wanted: its work stops and its successor takes over what it had done.
 */
export async function encodeIndex(index: SearchIndex, options: EncodeOptions = {}): Promise<number | null> {
  const { previous, wanted, store, lent } = options;
  const encoder = activeEncoder();
  if (!encoder) {
    lent?.();
    return null;
  }
  const known = lentRows(previous, encoder);
  const keys = store ? index.texts.map((text) => (text ? vectorKey(text, encoder) : "")) : [];
  const stored = store ? await loadStored(store) : new Map<string, Int8Array>();
  // A row of another dimension than the model's (a model changed under the same name) is encoded again.
  let dimensions = knownDimensions(encoder);
  const fits = (v: { length: number }) => {
    dimensions ??= v.length;
    return dimensions === v.length;
  };
  const have: (Float32Array | undefined)[] = [];
  const missing: number[] = [];
  index.texts.forEach((text, id) => {
    if (!text) return;
    const bytes = stored.get(keys[id] ?? "");
    const reused = known.get(text) ?? (bytes && fits(bytes) ? unitRow(bytes) : null);
    if (reused && fits(reused)) have[id] = reused;
    else missing.push(id);
  });
  const attach = () => attachRows(index, have, encoder);
  if (missing.length > 0 && missing.length < index.texts.filter(Boolean).length) attach();
  lent?.();
  if (missing.length > 0) {
    const soFar = new Map(known);
    encodedSoFar.set(index, { encoder, rows: soFar });
    // An edit's texts (new to the previous index) first, at edit priority; then what a start left to do.
    const had = new Set(previous?.texts ?? []);
    const edited = previous ? missing.filter((id) => !had.has(index.texts[id] ?? "")) : [];
    const rest = previous ? missing.filter((id) => had.has(index.texts[id] ?? "")) : missing;
    let since = 0;
    for (const [ids, priority] of [
      [edited, "edit"],
      [rest, "index"],
    ] as const) {
      if (ids.length === 0) continue;
      const texts = ids.map((id) => index.texts[id] ?? "");
      const progress = (first: number, chunk: Float32Array, D: number) => {
        for (let k = 0; k * D < chunk.length; k++) {
          const row = chunk.slice(k * D, (k + 1) * D);
          soFar.set(texts[first + k] ?? "", row);
          have[ids[first + k] ?? 0] = row;
        }
        since += chunk.length / D;
        if (since >= ATTACH_EVERY) {
          since = 0;
          attach();
        }
      };
      // Kept when the work stopped: a successor built later still finds what was done.
      if (!(await encodeTexts(texts, priority, { wanted, progress }, encoder))) return null;
    }
    encodedSoFar.delete(index);
  }
  attach();
  if (store) saveStored(store, index, keys, stored);
  return missing.length;
}

/** Attaches the rows there are (a unit without one gets a zero row: it is read from its words meanwhile). */
function attachRows(index: SearchIndex, have: (Float32Array | undefined)[], encoder: string): void {
  const dimensions = have.find(Boolean)?.length;
  if (!dimensions) return;
  const rows = new Float32Array(index.units.length * dimensions);
  have.forEach((row, id) => {
    if (row) rows.set(row, id * dimensions);
  });
  attachSentenceVectors(index, rows, { name: encoder, dimensions });
}

/**
 * The rows the previous index of the knowledge base lends, by text: its vectors, or what it had encoded so far, when
 * they were made by `encoder` (after a change of encoder nothing is lent).
 */
function lentRows(previous: SearchIndex | null | undefined, encoder: string): Map<string, Float32Array> {
  const known = new Map<string, Float32Array>();
  if (!previous) return known;
  const { sentences } = previous;
  if (sentences?.encoder === encoder)
    previous.texts.forEach((text, id) => {
      const vector = text ? row(sentences, id) : null;
      if (text && vector) known.set(text, vector);
    });
  const soFar = encodedSoFar.get(previous);
  if (soFar?.encoder === encoder) for (const [text, vector] of soFar.rows) known.set(text, vector);
  return known;
}

async function loadStored(store: VectorStore): Promise<Map<string, Int8Array>> {
  try {
    return await store.load();
  } catch (err) {
    process.emitWarning(`Stored sentence vectors not read, they are encoded again: ${(err as Error).message}`);
    return new Map();
  }
}

/** Saves, in the background, what the store lacks of the index and drops what the index no longer has. */
function saveStored(store: VectorStore, index: SearchIndex, keys: string[], stored: Map<string, Int8Array>): void {
  const sentences = index.sentences;
  if (!sentences) return;
  const D = sentences.dimensions;
  const added = new Map<string, Int8Array>();
  keys.forEach((key, id) => {
    if (key && !stored.has(key)) added.set(key, sentences.values.slice(id * D, (id + 1) * D));
  });
  const current = new Set(keys);
  // Another encoder's vectors are its own to drop, as long as it is the embedded one or the configured model's.
  const own = markOf(keys.find(Boolean) ?? "");
  const endpoint = embeddingsEndpoint();
  const kept = new Set(["", ...(endpoint ? [encoderMark(endpointEncoderName(endpoint))] : [])]);
  const stale = [...stored.keys()].filter((key) => (markOf(key) === own ? !current.has(key) : !kept.has(markOf(key))));
  if (added.size === 0 && stale.length === 0) return;
  store.save(added, stale).catch((err: unknown) => {
    process.emitWarning(
      `Sentence vectors not stored, they are encoded again after a restart: ${(err as Error).message}`,
    );
  });
}
