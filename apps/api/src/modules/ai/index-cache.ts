import { LRUCache } from "lru-cache";
import { buildIndex, type KbArticle, type SearchIndex } from "./retrieval.ts";
import { activeEncoder, within } from "./sentence-encoder.ts";
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
/**
 * Settles once an index has the vectors that could be lent by its predecessor or read back from the store (a
 * database read, not the encoder's work), or has none to get.
 */
const lending = new WeakMap<SearchIndex, Promise<void>>();

/**
 * How questions were read since the process started: with every unit's sentence vector, with those of the articles
 * not being encoded (the rest from words), or from words alone; and how many waited for an index's vectors (only
 * with AI_ENCODER_WAIT_MS set: tests and benchmarks). What a test of "no wait after an edit" reads.
 */
const readCounts = { encoded: 0, partly: 0, words: 0, waited: 0 };
export type SentenceReading = "encoded" | "partly" | "words";

export function sentenceReadings(): Readonly<typeof readCounts> {
  return { ...readCounts };
}

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
  // A change of encoder (the embeddings endpoint put aside after a failure, or back) is a new index too: its vectors
  // are the other encoder's, and the two are never mixed.
  const key = `${stamp}\n${activeEncoder() ?? ""}`;
  const cached = entries.get(orgId);
  if (cached && cached.stamp === key) return cached.index;
  const loaded = await load();
  // Another question may have built this index meanwhile; else the latest index before it lends its vectors.
  const current = entries.peek(orgId);
  if (current && current.stamp === key) return current.index;
  const index = buildIndex(loaded, wordVectors());
  entries.set(orgId, { stamp: key, index });
  // The previous index of this knowledge base and the store lend the vectors of every unit they have. Encoding
  // stops once this index is replaced or evicted: its successor takes over what it had done.
  const wanted = () => entries.peek(orgId)?.index === index;
  let lent = () => {};
  lending.set(
    index,
    new Promise((resolve) => {
      lent = resolve;
    }),
  );
  const encoded = encodeIndex(index, { previous: current?.index, wanted, store, lent })
    .catch((err: unknown) => {
      process.emitWarning(`Sentence vectors not computed: ${(err as Error).message}`);
      return null;
    })
    .finally(lent);
  encoding.set(index, encoded);
  return index;
}

/**
 * What a question is read with: the vectors the index has once those lent or read back are attached (a database
 * read, bounded by `lendMs`), never waiting for the encoder; only with `waitMs` above 0 (AI_ENCODER_WAIT_MS: tests and
 * benchmarks) does it wait that long for the rest. Never waits for an index built elsewhere (the benchmarks encode
 * their own).
 */
export async function sentencesReady(index: SearchIndex, waitMs: number, lendMs = waitMs): Promise<SentenceReading> {
  const lent = lending.get(index);
  if (lent && !index.sentences) await within(lent, lendMs, undefined);
  const encoded = encoding.get(index);
  if (encoded && waitMs > 0 && (!index.sentences || index.sentences.pending > 0)) {
    readCounts.waited++;
    await within(encoded, waitMs, null);
  }
  const reading = !index.sentences ? "words" : index.sentences.pending > 0 ? "partly" : "encoded";
  readCounts[reading]++;
  return reading;
}

/**
 * How many texts the encoder read for the organization's cached index (the rest came from the previous index or the
 * store); null when it has none, or the encoder was unavailable or stopped.
 */
export async function indexEncoded(orgId: string): Promise<number | null> {
  const entry = entries.peek(orgId);
  return entry ? (encoding.get(entry.index) ?? null) : null;
}

/** The encoder that made the organization's cached index's vectors (null: none yet, or no index). */
export function indexEncoder(orgId: string): string | null {
  return entries.peek(orgId)?.index.sentences?.encoder ?? null;
}

/** Drops an organization's index at once (the fingerprint would catch the change on the next question anyway). */
export function forgetOrganizationIndex(orgId: string): void {
  entries.delete(orgId);
}

export function indexCacheSize(): { organizations: number; units: number } {
  return { organizations: entries.size, units: entries.calculatedSize };
}
