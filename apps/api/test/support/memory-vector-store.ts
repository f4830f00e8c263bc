import type { VectorStore } from "../../src/modules/ai/sentences.ts";

/** A store of sentence vectors in memory, as the database keeps them: by key. */
export function memoryStore(): VectorStore & { rows: Map<string, Int8Array> } {
  const rows = new Map<string, Int8Array>();
  return {
    rows,
    load: async () => new Map(rows),
    save: async (added, stale) => {
      for (const [key, v] of added) if (!rows.has(key)) rows.set(key, v);
      for (const key of stale) rows.delete(key);
    },
  };
}
