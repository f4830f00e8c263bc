import { LRUCache } from "lru-cache";
import type { Principal } from "./tenancy.ts";

/** How long a resolved session is reused without looking it up again; every tenant transaction still checks it. */
export const SESSION_CACHE_SECONDS = 60;
const MAX_ENTRIES = 20_000;

interface Entry {
  principal: Principal;
  until: number;
}

/**
 * Resolved sessions by token hash, so a request need not look its session up before it starts its transaction. This
 * is only a shortcut to who the caller claims to be: the transaction that does the request's work checks, in the
 * statement that sets its organization, that the session still exists, has not expired and belongs to an active
 * user with that role (tenancy.ts). A revoked session, a deactivated user or a changed role take effect at once.
 */
export function createSessionCache(now: () => number = Date.now) {
  // Least recently used sessions go first past the bound; each is kept until its expiry or the minute, if sooner.
  const entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  return {
    get(hash: string): Principal | null {
      const entry = entries.get(hash);
      if (!entry) return null;
      if (entry.until <= now()) {
        entries.delete(hash);
        return null;
      }
      return entry.principal;
    },
    set(hash: string, principal: Principal, expiresAt: Date): void {
      entries.set(hash, {
        principal,
        until: Math.min(expiresAt.getTime(), now() + SESSION_CACHE_SECONDS * 1000),
      });
    },
    delete(hash: string): void {
      entries.delete(hash);
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
