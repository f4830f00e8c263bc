/**
 * The sentence encoder for the in-process AI benchmarks (ai-eval, ai-calibrate): every text of a run is encoded once
 * however many knowledge bases use it (each out-of-scope question is asked in every domain), and each index gets its
 * vectors when it is built, as the server's do before it answers. AI_SENTENCE_ENCODER=false measures without it.
 * BENCH_AI_SENTENCE_CACHE=<path of a JSON file> keeps the vectors between runs, e.g. /tmp/cove-sentences.json (for
 * trying retrieval constants: the encoder's output does not depend on them). It holds every text of the benchmark,
 * some 40 MB: keep it outside the repository.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { SearchIndex } from "../apps/api/src/modules/ai/retrieval.ts";
import {
  encodeSentences,
  SENTENCE_DIMENSIONS,
  SENTENCE_ENCODER_NAME,
} from "../apps/api/src/modules/ai/sentence-encoder.ts";
import { attachSentenceVectors } from "../apps/api/src/modules/ai/sentences.ts";

const D = SENTENCE_DIMENSIONS;
const cacheFile = process.env.BENCH_AI_SENTENCE_CACHE;
const memo = new Map<string, Float32Array | null>();
// The file names the encoder (and how it reads texts) it was made with; another's vectors are not reused.
interface Saved {
  encoder?: string;
  vectors?: Record<string, number[]>;
}
if (cacheFile && existsSync(cacheFile)) {
  const saved = JSON.parse(readFileSync(cacheFile, "utf8")) as Saved;
  if (saved.encoder === SENTENCE_ENCODER_NAME)
    for (const [text, row] of Object.entries(saved.vectors ?? {})) memo.set(text, Float32Array.from(row));
}

/** Vectors of the texts (null each without the encoder), encoding only those not seen before. */
export async function questionVectors(texts: string[]): Promise<(Float32Array | null)[]> {
  const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
  if (missing.length > 0) {
    const rows = await encodeSentences(missing, "index");
    missing.forEach((t, k) => {
      memo.set(t, rows ? rows.slice(k * D, (k + 1) * D) : null);
    });
    if (cacheFile && rows) {
      const vectors: Record<string, number[]> = {};
      for (const [text, row] of memo) if (row) vectors[text] = Array.from(row);
      writeFileSync(cacheFile, JSON.stringify({ encoder: SENTENCE_ENCODER_NAME, vectors } satisfies Saved));
    }
  }
  return texts.map((t) => memo.get(t) ?? null);
}

/** The index with its units' sentence vectors (unchanged without the encoder). */
export async function prepareIndex(index: SearchIndex): Promise<SearchIndex> {
  const vectors = await questionVectors(index.texts);
  if (vectors.some((v, id) => !v && index.texts[id])) return index;
  const rows = new Float32Array(index.units.length * D);
  vectors.forEach((v, id) => {
    if (v && index.texts[id]) rows.set(v, id * D);
  });
  attachSentenceVectors(index, rows);
  return index;
}
