/**
 * The web app's recent problems, for the /debug page: errors the route error boundaries caught and API calls that
 * failed. Kept in sessionStorage, so a developer can reload or open /debug in the same tab and still see them; never
 * holds request bodies, tokens or query strings. Tiny on purpose: the app's entry chunk carries it.
 */

interface ApiFailure {
  kind: "api";
  method: string;
  path: string;
  /** 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
}

interface BoundaryError {
  kind: "boundary";
  /** The page (path) that was on screen. */
  page: string;
  message: string;
  stack?: string;
}

export type DebugEntry = (ApiFailure | BoundaryError) & { id: string; at: string };

const STORAGE_KEY = "cove.debug-log";
export const DEBUG_LOG_LIMIT = 50;

const listeners = new Set<() => void>();
let entries: readonly DebugEntry[] | null = null;
let sequence = 0;

function load(): readonly DebugEntry[] {
  if (entries) return entries;
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]");
    entries = Array.isArray(parsed) ? (parsed as DebugEntry[]) : [];
  } catch {
    entries = [];
  }
  return entries;
}

function save(next: readonly DebugEntry[]) {
  entries = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the log still works for this page.
  }
  for (const listener of listeners) listener();
}

/** Newest first; the same array until something changes (for useSyncExternalStore). */
export function getDebugLog(): readonly DebugEntry[] {
  return load();
}

export function subscribeDebugLog(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function clearDebugLog(): void {
  save([]);
}

function add(entry: ApiFailure | BoundaryError) {
  // Not crypto.randomUUID: it is missing on plain-http installs (not a secure context).
  const id = `${Date.now().toString(36)}-${(sequence++).toString(36)}`;
  save([{ ...entry, id, at: new Date().toISOString() }, ...load()].slice(0, DEBUG_LOG_LIMIT));
}

export function logApiFailure(failure: Omit<ApiFailure, "kind">) {
  // Only the path: query strings can carry what people typed (search terms, emails).
  add({ kind: "api", ...failure, path: failure.path.split("?")[0] ?? failure.path });
}

export function logBoundaryError(error: unknown, page: string) {
  if (error instanceof Error) {
    add({ kind: "boundary", page, message: `${error.name}: ${error.message}`, stack: error.stack?.slice(0, 2000) });
  } else if (typeof error === "object" && error !== null && "status" in error && "statusText" in error) {
    // A route error response (thrown by a loader or the router itself).
    add({ kind: "boundary", page, message: `${String(error.status)} ${String(error.statusText)}`.trim() });
  } else {
    add({ kind: "boundary", page, message: String(error) });
  }
}
