import { type SessionUser, sessionUser } from "@cove/contract/auth.ts";
import { z } from "zod";

/**
 * The signed-in session (token + user) lives in localStorage so it survives reloads (spec section 4). This module is
 * the only place that touches that key; React reads it through useSyncExternalStore, the API client reads the token.
 */
export interface StoredSession {
  token: string;
  user: SessionUser;
}

const STORAGE_KEY = "cove.session";
const storedSession = z.object({ token: z.string().min(1), user: sessionUser });

const listeners = new Set<() => void>();
// useSyncExternalStore needs the same object back while nothing changed, so the parse is memoised on the raw text.
let lastRaw: string | null = null;
let lastSession: StoredSession | null = null;

function readRaw(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be blocked (privacy settings); the app then behaves as signed out.
    return null;
  }
}

function parse(raw: string | null): StoredSession | null {
  if (raw === null) return null;
  try {
    const result = storedSession.safeParse(JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

export function getSession(): StoredSession | null {
  const raw = readRaw();
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastSession = parse(raw);
  }
  return lastSession;
}

function notify() {
  for (const listener of listeners) listener();
}

export function setSession(session: StoredSession): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Without storage the session cannot outlive the tab; nothing else to do.
  }
  notify();
}

export function clearSession(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // See readRaw.
  }
  notify();
}

function onStorage(event: StorageEvent) {
  // Another tab signed in or out: follow it so two tabs never act as different users.
  if (event.key === STORAGE_KEY || event.key === null) notify();
}

export function subscribeSession(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}
