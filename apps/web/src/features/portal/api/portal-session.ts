import { type PortalSessionAnswer, portalSessionAnswer } from "@cove/contract/portal.ts";
import { useCallback, useSyncExternalStore } from "react";

/**
 * A customer's portal session lives in its own storage key per portal (`cove.portal.<org-slug>`, the demo under
 * `cove.portal-demo`), never in the staff session's: a member who is also someone's customer can be both in one
 * browser, and signing out of one leaves the other alone.
 */
export type PortalScope = { kind: "portal"; orgSlug: string } | { kind: "demo" };

const storageKey = (scope: PortalScope) =>
  scope.kind === "demo" ? "cove.portal-demo" : `cove.portal.${scope.orgSlug}`;

const listeners = new Set<() => void>();
const parsed = new Map<string, { raw: string | null; session: PortalSessionAnswer | null }>();

function read(key: string): PortalSessionAnswer | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    // Storage blocked: the customer signs in again each visit.
  }
  const cached = parsed.get(key);
  if (cached && cached.raw === raw) return cached.session;
  let session: PortalSessionAnswer | null = null;
  if (raw !== null) {
    try {
      const result = portalSessionAnswer.safeParse(JSON.parse(raw));
      session = result.success ? result.data : null;
    } catch {
      session = null;
    }
  }
  parsed.set(key, { raw, session });
  return session;
}

function notify() {
  for (const l of listeners) l();
}

export function savePortalSession(scope: PortalScope, session: PortalSessionAnswer): void {
  try {
    localStorage.setItem(storageKey(scope), JSON.stringify(session));
  } catch {
    // Without storage the session lasts as long as the page.
  }
  notify();
}

export function clearPortalSession(scope: PortalScope): void {
  try {
    localStorage.removeItem(storageKey(scope));
  } catch {
    // See read.
  }
  notify();
}

function subscribe(listener: () => void) {
  const onStorage = () => listener();
  listeners.add(listener);
  // Another tab signed in or out of the same portal: follow it.
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The stored session of a portal (null: signed out), kept in step with other tabs. */
export function usePortalSession(scope: PortalScope): PortalSessionAnswer | null {
  const key = storageKey(scope);
  const get = useCallback(() => read(key), [key]);
  return useSyncExternalStore(subscribe, get, () => null);
}
