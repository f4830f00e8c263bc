import type { Principal } from "./tenancy.ts";

/** How long a resolved session is reused without looking it up again; every tenant transaction still checks it. */
export const SESSION_CACHE_SECONDS = 60;
const MAX_ENTRIES = 20_000;

interface Entry {
  principal: Omit<Principal, "verified">;
  until: number;
}

/**
 * Resolved sessions by token hash, so a request need not look its session up before it starts its transaction. This
 * is only a shortcut to who the caller claims to be: the transaction that does the request's work checks, in the
 * statement that sets its organization, that the session still exists, has not expired and belongs to an active
 * user with that role (tenancy.ts). A revoked session, a deactivated user or a changed role take effect at once.
 */
export function createSessionCache(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();
  return {
    get(hash: string): Principal | null {
      const entry = entries.get(hash);
      if (!entry) return null;
      if (entry.until <= now()) {
        entries.delete(hash);
        return null;
      }
      return { ...entry.principal, verified: false };
    },
    set(hash: string, principal: Principal, expiresAt: Date): void {
      if (entries.size >= MAX_ENTRIES) {
        // Maps keep insertion order: the first entries are the oldest.
        for (const key of [...entries.keys()].slice(0, MAX_ENTRIES / 10)) entries.delete(key);
      }
      const { verified: _, ...claims } = principal;
      entries.set(hash, {
        principal: claims,
        until: Math.min(expiresAt.getTime(), now() + SESSION_CACHE_SECONDS * 1000),
      });
    },
    delete(hash: string): void {
      entries.delete(hash);
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
