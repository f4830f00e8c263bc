import { LRUCache } from "lru-cache";
import { buildIndex, type KbArticle, type SearchIndex } from "./retrieval.ts";
import { within } from "./sentence-encoder.ts";
import { encodeIndex, type VectorStore } from "./sentences.ts";
import { wordVectors } from "./word-vectors.ts";

/**
 * Each organization's search index, built from its published articles and kept in memory until they change.
 * Bounded twice, as a least-recently-used list: by organizations and by indexed units in total (a unit is a title,
 * an alternative phrasing, a passage or a sentence; each costs about 3.8 KB of heap with its word vector and trigram
 * postings, measured, and half a kilobyte more with its sentence vector), so thousands of organizations cannot exhaust
 * memory: 100,000 units are about 430 MB, some twenty small businesses' knowledge bases. An evicted organization's
 * index is simply rebuilt on its next question (milliseconds for hundreds of articles; its sentence vectors follow in
 * the background, about 10 ms a unit, while questions are answered without them).
 */
export const INDEX_CACHE_LIMITS = { organizations: 500, units: 100_000 };

interface Entry {
  stamp: string;
  index: SearchIndex;
}

/** Settles when the sentence encoder has read an index's units, or cannot. */
const encoding = new WeakMap<SearchIndex, Promise<number | null>>();

function newCache(limits: typeof INDEX_CACHE_LIMITS) {
  return new LRUCache<string, Entry>({
    max: limits.organizations,
    maxSize: limits.units,
    // An index larger than the whole budget still counts as the budget: it is kept, alone.
    sizeCalculation: (entry) => Math.min(Math.max(entry.index.units.length, 1), limits.units),
  });
}

let entries = newCache(INDEX_CACHE_LIMITS);

/** Sets the bounds, forgetting every index held (tests use small ones). */
export function limitIndexCache(limits: typeof INDEX_CACHE_LIMITS): void {
  entries = newCache(limits);
}

/**
 * The organization's index for the given fingerprint of its published articles; `load` runs only when the cached
 * index is missing or stale.
 */
export async function organizationIndex(
  orgId: string,
  stamp: string,
  load: () => Promise<KbArticle[]>,
  store?: VectorStore,
): Promise<SearchIndex> {
  const cached = entries.get(orgId);
  if (cached && cached.stamp === stamp) return cached.index;
  const loaded = await load();
  // Another question may have built this index meanwhile; else the latest index before it lends its vectors.
  const current = entries.peek(orgId);
  if (current && current.stamp === stamp) return current.index;
  const index = buildIndex(loaded, wordVectors());
  entries.set(orgId, { stamp, index });
  // The previous index of this knowledge base and the store lend the vectors of every unit they have. Encoding
  // stops once this index is replaced or evicted: its successor takes over what it had done.
  const wanted = () => entries.peek(orgId)?.index === index;
  const encoded = encodeIndex(index, { previous: current?.index, wanted, store }).catch((err: unknown) => {
    process.emitWarning(`Sentence vectors not computed: ${(err as Error).message}`);
    return null;
  });
  encoding.set(index, encoded);
  return index;
}

/**
 * Waits until the index has its sentence vectors or `waitMs` has passed, whichever is first: a question is then
 * answered with what the index has. Never waits for an index built elsewhere (the benchmarks encode their own).
 */
export async function sentencesReady(index: SearchIndex, waitMs: number): Promise<void> {
  const encoded = encoding.get(index);
  if (index.sentences || !encoded || waitMs <= 0) return;
  await within(encoded, waitMs, null);
}

/**
 * How many texts the encoder read for the organization's cached index (the rest came from the previous index or the
 * store); null when it has none, or the encoder was unavailable or stopped.
 */
export async function indexEncoded(orgId: string): Promise<number | null> {
  const entry = entries.peek(orgId);
  return entry ? (encoding.get(entry.index) ?? null) : null;
}

/** Drops an organization's index at once (the fingerprint would catch the change on the next question anyway). */
export function forgetOrganizationIndex(orgId: string): void {
  entries.delete(orgId);
}

export function indexCacheSize(): { organizations: number; units: number } {
  return { organizations: entries.size, units: entries.calculatedSize };
}
