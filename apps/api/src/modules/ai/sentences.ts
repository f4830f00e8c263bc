import type { SearchIndex } from "./retrieval.ts";
import { encodeSentences, SENTENCE_DIMENSIONS } from "./sentence-encoder.ts";

/**
 * An index's sentence vectors, one row of SENTENCE_DIMENSIONS per unit, stored as bytes: each row scaled so its
 * largest component is 127, with the length of the scaled row kept beside it. Half a kilobyte a unit instead of two,
 * and a cosine that differs from the full-precision one by less than 0.01.
 */
export interface SentenceVectors {
  values: Int8Array;
  norms: Float32Array;
}

const D = SENTENCE_DIMENSIONS;

/** Cosine of unit `id`'s vector with a unit-length query vector; 0 for a unit the encoder had nothing to read in. */
export function sentenceSimilarity(vectors: SentenceVectors, id: number, query: Float32Array): number {
  const norm = vectors.norms[id] ?? 0;
  if (norm === 0) return 0;
  const { values } = vectors;
  const offset = id * D;
  let sum = 0;
  for (let d = 0; d < D; d++) sum += (values[offset + d] ?? 0) * (query[d] ?? 0);
  return sum / norm;
}

function quantize(rows: Float32Array, count: number): SentenceVectors {
  const values = new Int8Array(count * D);
  const norms = new Float32Array(count);
  for (let id = 0; id < count; id++) {
    let max = 0;
    for (let d = 0; d < D; d++) max = Math.max(max, Math.abs(rows[id * D + d] ?? 0));
    if (max === 0) continue;
    let sq = 0;
    for (let d = 0; d < D; d++) {
      const q = Math.round(((rows[id * D + d] ?? 0) / max) * 127);
      values[id * D + d] = q;
      sq += q * q;
    }
    norms[id] = Math.sqrt(sq);
  }
  return { values, norms };
}

/** Unit `id`'s vector back as unit-length floats (to reuse it in a rebuilt index). */
function row(vectors: SentenceVectors, id: number): Float32Array | null {
  const norm = vectors.norms[id] ?? 0;
  if (norm === 0) return null;
  return Float32Array.from(vectors.values.subarray(id * D, (id + 1) * D), (v) => v / norm);
}

/**
 * Gives the index its sentence vectors: `rows` holds one unit-length row per unit, in the index's order. The
 * whole-article unit (whose text would be the whole article, slow to encode and diluted) gets the normalised mean
 * of its article's other units.
 */
export function attachSentenceVectors(index: SearchIndex, rows: Float32Array): void {
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
  index.sentences = quantize(rows, index.units.length);
}

/** The rows encoded so far of indexes not (yet) fully encoded, by text: a rebuild reuses them. */
const encodedSoFar = new WeakMap<SearchIndex, Map<string, Float32Array>>();

/**
 * Encodes the index's units and attaches their vectors. Units whose text the previous index of the same knowledge
 * base already encoded, or had encoded when it was replaced, are copied from it, so editing one article re-encodes
 * that article's units only, however often articles change. Resolves how many texts were encoded, or null (the index
 * stays without sentence vectors) when the encoder is unavailable or `wanted` turned false (the index was replaced:
 * its work stops and its successor takes over what it had done).
 */
export async function encodeIndex(
  index: SearchIndex,
  previous: SearchIndex | null = null,
  wanted?: () => boolean,
): Promise<number | null> {
  const rows = new Float32Array(index.units.length * D);
  const known = new Map<string, Float32Array>();
  if (previous?.sentences) {
    const { sentences } = previous;
    previous.texts.forEach((text, id) => {
      const vector = text ? row(sentences, id) : null;
      if (text && vector) known.set(text, vector);
    });
  } else if (previous) for (const [text, vector] of encodedSoFar.get(previous) ?? []) known.set(text, vector);
  const missing: number[] = [];
  index.texts.forEach((text, id) => {
    if (!text) return;
    const reused = known.get(text);
    if (reused) rows.set(reused, id * D);
    else missing.push(id);
  });
  if (missing.length > 0) {
    const texts = missing.map((id) => index.texts[id] ?? "");
    const soFar = new Map(known);
    encodedSoFar.set(index, soFar);
    const encoded = await encodeSentences(texts, "index", {
      wanted,
      progress: (first, chunk) => {
        for (let k = 0; k * D < chunk.length; k++) soFar.set(texts[first + k] ?? "", chunk.slice(k * D, (k + 1) * D));
      },
    });
    // Kept when the work stopped: a successor built later still finds what was done.
    if (!encoded) return null;
    encodedSoFar.delete(index);
    missing.forEach((id, k) => {
      rows.set(encoded.subarray(k * D, (k + 1) * D), id * D);
    });
  }
  attachSentenceVectors(index, rows);
  return missing.length;
}
