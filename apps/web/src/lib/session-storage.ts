import type { SessionUser } from "@cove/contract/auth.ts";
import { ROLES } from "@cove/contract/constants.ts";

/**
 * The signed-in session (token + user) lives in localStorage so it survives reloads (docs/product.md, "States"). This module is
 * the only place that touches that key; React reads it through useSyncExternalStore, the API client reads the token.
 */
export interface StoredSession {
  token: string;
  user: SessionUser;
}

const STORAGE_KEY = "cove.session";
const USER_TEXT_FIELDS = [
  "id",
  "email",
  "firstName",
  "lastName",
  "organizationName",
  "organizationId",
  "organizationSlug",
] as const;

/**
 * A hand-written shape check rather than the contract's zod schema: this module is in the landing bundle and zod is
 * not (docs/engineering.md budget). It only guards against a corrupt or outdated entry; the server re-checks the token and
 * sends a validated user (GET /api/auth/me) on every app load.
 */
function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== "object" || value === null) return false;
  const { token, user } = value as { token?: unknown; user?: unknown };
  if (typeof token !== "string" || token === "" || typeof user !== "object" || user === null) return false;
  const fields = user as Record<string, unknown>;
  return (
    USER_TEXT_FIELDS.every((key) => typeof fields[key] === "string") &&
    ROLES.some((role) => role === fields.role) &&
    (fields.avatarUrl === null || typeof fields.avatarUrl === "string")
  );
}

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
    const value: unknown = JSON.parse(raw);
    return isStoredSession(value) ? value : null;
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
