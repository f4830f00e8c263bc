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
import { activeEncoder, encodeTexts } from "../apps/api/src/modules/ai/sentence-encoder.ts";
import { attachSentenceVectors } from "../apps/api/src/modules/ai/sentences.ts";

/**
 * The encoder of the whole run, chosen at start: the embeddings endpoint when AI_EMBEDDINGS_URL is set (the
 * calibration command, ai-calibrate-embeddings.ts), else the embedded one. Its failure is not papered over with the
 * other's vectors: those texts get none.
 */
let encoder: string | null | undefined;
let D = 0;
const cacheFile = process.env.BENCH_AI_SENTENCE_CACHE;
const memo = new Map<string, Float32Array | null>();
// The file names the encoder (and how it reads texts) it was made with; another's vectors are not reused.
interface Saved {
  encoder?: string;
  vectors?: Record<string, number[]>;
}
/** The run's encoder, chosen on first use (after a command has set the environment); the cache file read then. */
function runEncoder(): string | null {
  if (encoder !== undefined) return encoder;
  encoder = activeEncoder();
  if (cacheFile && existsSync(cacheFile)) {
    const saved = JSON.parse(readFileSync(cacheFile, "utf8")) as Saved;
    if (encoder && saved.encoder === encoder)
      for (const [text, row] of Object.entries(saved.vectors ?? {})) {
        memo.set(text, Float32Array.from(row));
        D = row.length;
      }
  }
  return encoder;
}

/** Vectors of the texts (null each without the encoder), encoding only those not seen before. */
export async function questionVectors(texts: string[]): Promise<(Float32Array | null)[]> {
  const encoder = runEncoder();
  const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
  if (missing.length > 0) {
    const encoded = encoder ? await encodeTexts(missing, "index", {}, encoder) : null;
    const rows = encoded?.rows;
    if (encoded) D = encoded.dimensions;
    missing.forEach((t, k) => {
      memo.set(t, rows ? rows.slice(k * D, (k + 1) * D) : null);
    });
    if (cacheFile && rows) {
      const vectors: Record<string, number[]> = {};
      for (const [text, row] of memo) if (row) vectors[text] = Array.from(row);
      writeFileSync(cacheFile, JSON.stringify({ encoder: encoder ?? undefined, vectors } satisfies Saved));
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
  attachSentenceVectors(index, rows, { name: runEncoder() ?? "", dimensions: D });
  return index;
}
