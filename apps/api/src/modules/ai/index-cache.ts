import { buildIndex, type KbArticle, type SearchIndex } from "./retrieval.ts";
import { wordVectors } from "./word-vectors.ts";

/**
 * Each organization's search index, built from its published articles and kept in memory until they change.
 * Bounded twice, as a least-recently-used list: by organizations and by indexed units in total (a unit is a title,
 * an alternative phrasing, a passage or a sentence; each costs about 3.8 KB of heap with its word vector and trigram
 * postings, measured), so thousands of organizations cannot exhaust memory: 100,000 units are about 380 MB, some twenty
 * small businesses' knowledge bases. An evicted organization's index is simply rebuilt on its next question
 * (milliseconds for hundreds of articles).
 */
export const INDEX_CACHE_LIMITS = { organizations: 500, units: 100_000 };

interface Entry {
  stamp: string;
  index: SearchIndex;
}

const entries = new Map<string, Entry>();
let unitsHeld = 0;

function evict(orgId: string): void {
  const entry = entries.get(orgId);
  if (!entry) return;
  entries.delete(orgId);
  unitsHeld -= entry.index.units.length;
}

/**
 * The organization's index for the given fingerprint of its published articles; `load` runs only when the cached
 * index is missing or stale.
 */
export async function organizationIndex(
  orgId: string,
  stamp: string,
  load: () => Promise<KbArticle[]>,
): Promise<SearchIndex> {
  const cached = entries.get(orgId);
  if (cached && cached.stamp === stamp) {
    // Map keeps insertion order: re-inserting marks the entry as most recently used.
    entries.delete(orgId);
    entries.set(orgId, cached);
    return cached.index;
  }
  const index = buildIndex(await load(), wordVectors());
  evict(orgId);
  entries.set(orgId, { stamp, index });
  unitsHeld += index.units.length;
  for (const oldest of entries.keys()) {
    if (entries.size <= INDEX_CACHE_LIMITS.organizations && unitsHeld <= INDEX_CACHE_LIMITS.units) break;
    if (oldest === orgId) continue;
    evict(oldest);
  }
  return index;
}

/** Drops an organization's index at once (the fingerprint would catch the change on the next question anyway). */
export function forgetOrganizationIndex(orgId: string): void {
  evict(orgId);
}

export function indexCacheSize(): { organizations: number; units: number } {
  return { organizations: entries.size, units: unitsHeld };
}
