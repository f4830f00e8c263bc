/**
 * The sentence encoder for the in-process AI benchmarks (ai-eval, ai-calibrate): the questions of a run are encoded
 * once however many knowledge bases ask them (each out-of-scope question is asked in every domain), and each index
 * is encoded when it is built, as the server does before answering. AI_SENTENCE_ENCODER=false measures without it.
 */

import type { SearchIndex } from "../apps/api/src/modules/ai/retrieval.ts";
import { encodeSentences, SENTENCE_DIMENSIONS } from "../apps/api/src/modules/ai/sentence-encoder.ts";
import { encodeIndex } from "../apps/api/src/modules/ai/sentences.ts";

const memo = new Map<string, Float32Array | null>();

/** Vectors of the questions (null each without the encoder), encoding only those not seen before. */
export async function questionVectors(texts: string[]): Promise<(Float32Array | null)[]> {
  const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
  if (missing.length > 0) {
    const rows = await encodeSentences(missing, "index");
    missing.forEach((t, k) => {
      memo.set(t, rows ? rows.slice(k * SENTENCE_DIMENSIONS, (k + 1) * SENTENCE_DIMENSIONS) : null);
    });
  }
  return texts.map((t) => memo.get(t) ?? null);
}

export async function prepareIndex(index: SearchIndex): Promise<SearchIndex> {
  await encodeIndex(index);
  return index;
}
