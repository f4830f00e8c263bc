import type { ActorRef, EventType } from "@cove/contract/events.ts";
import type { Viewer } from "@cove/contract/realtime.ts";

/**
 * The browser's end of the realtime socket (/api/realtime): one connection per signed-in session. It signs in with
 * the session's token in its first frame, keeps the topics the screens ask for, reconnects with a growing wait when
 * the connection drops (a server shutting down closes it with 1001: it comes back through the load balancer to
 * another instance), and says when it has come back, so that what is on screen can be fetched again: events sent
 * while it was away are not replayed, their changes are read afresh. It says so only once the server has taken its
 * subscriptions again (the pong to a ping sent after them: the server handles a socket's frames in order), so a
 * change committed between that refetch and the subscriptions cannot slip through both. It knows no query library:
 * app/realtime-provider.tsx turns its events into query updates.
 */

export type LiveStatus = "connecting" | "live" | "offline";

export interface LiveEvent {
  id: number;
  type: EventType;
  actor: ActorRef;
  occurred_at: string;
  data: Record<string, unknown>;
}

export interface RealtimeConnection {
  /** Follows a topic until the returned function is called (several callers may follow the same topic). */
  follow(topic: string): () => void;
  onEvent(listener: (event: LiveEvent, topic: string) => void): () => void;
  onPresence(topic: string, listener: (viewers: Viewer[]) => void): () => void;
  /** Says "I am replying" on a ticket topic this connection follows. */
  typing(topic: string): void;
  status(): LiveStatus;
  onStatus(listener: (status: LiveStatus) => void): () => void;
  close(): void;
}

export interface RealtimeOptions {
  token: string;
  /** ws(s)://host/api/realtime; by default the page's own host. */
  url?: string;
  /** The connection came back after a drop: what the screens show may have changed meanwhile. */
  onReconnected?: () => void;
  /** The server refused the token or ended the session. */
  onSessionEnded?: () => void;
  /** For tests. */
  createSocket?: (url: string) => WebSocket;
}

const PING_EVERY_MS = 25_000;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

function defaultUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss" : "ws"}://${host}/api/realtime`;
}

export function connectRealtime(options: RealtimeOptions): RealtimeConnection {
  const url = options.url ?? defaultUrl();
  const create = options.createSocket ?? ((u: string) => new WebSocket(u));
  const follows = new Map<string, number>();
  const eventListeners = new Set<(event: LiveEvent, topic: string) => void>();
  const presenceListeners = new Map<string, Set<(viewers: Viewer[]) => void>>();
  const statusListeners = new Set<(status: LiveStatus) => void>();
  let socket: WebSocket | null = null;
  let status: LiveStatus = "connecting";
  let ready = false;
  let everReady = false;
  /** Back after a drop: waiting for the pong that follows the subscriptions, to say so. */
  let resyncing = false;
  let closed = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;

  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    for (const l of statusListeners) l(next);
  };

  const sendFrame = (frame: object) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  };

  const onMessage = (raw: MessageEvent) => {
    let frame: { type?: string; topic?: string; event?: LiveEvent; viewers?: Viewer[] };
    try {
      frame = JSON.parse(String(raw.data));
    } catch {
      return;
    }
    if (frame.type === "ready") {
      ready = true;
      attempt = 0;
      for (const topic of follows.keys()) sendFrame({ type: "subscribe", topic });
      setStatus("live");
      if (everReady) {
        resyncing = true;
        sendFrame({ type: "ping" });
      }
      everReady = true;
    } else if (frame.type === "pong") {
      if (!resyncing) return;
      resyncing = false;
      options.onReconnected?.();
    } else if (frame.type === "event" && frame.event && frame.topic) {
      for (const l of eventListeners) l(frame.event, frame.topic);
    } else if (frame.type === "presence" && frame.topic && frame.viewers) {
      for (const l of presenceListeners.get(frame.topic) ?? []) l(frame.viewers);
    }
  };

  const scheduleRetry = (wait: number) => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open();
    }, wait);
  };

  const open = () => {
    if (closed) return;
    ready = false;
    const next = create(url);
    socket = next;
    next.onopen = () => next.send(JSON.stringify({ type: "auth", token: options.token }));
    next.onmessage = onMessage;
    next.onclose = (event) => {
      if (socket !== next) return;
      socket = null;
      ready = false;
      resyncing = false;
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (closed) return;
      setStatus("offline");
      for (const listeners of presenceListeners.values()) for (const l of listeners) l([]);
      if (event.code === 4001) {
        options.onSessionEnded?.();
        return scheduleRetry(MAX_RETRY_MS);
      }
      // A growing wait with some randomness, so a restarted server is not hit by every browser at once.
      const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.75 + Math.random() / 2);
      attempt++;
      scheduleRetry(wait);
    };
    next.onerror = () => {};
    pingTimer = setInterval(() => sendFrame({ type: "ping" }), PING_EVERY_MS);
  };

  const onOnline = () => {
    if (status !== "offline" || !retryTimer) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    open();
  };
  window.addEventListener("online", onOnline);
  open();

  return {
    follow(topic) {
      const n = follows.get(topic) ?? 0;
      follows.set(topic, n + 1);
      if (n === 0 && ready) sendFrame({ type: "subscribe", topic });
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (follows.get(topic) ?? 1) - 1;
        if (left > 0) return void follows.set(topic, left);
        follows.delete(topic);
        if (ready) sendFrame({ type: "unsubscribe", topic });
      };
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onPresence(topic, listener) {
      const set = presenceListeners.get(topic) ?? new Set();
      set.add(listener);
      presenceListeners.set(topic, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) presenceListeners.delete(topic);
      };
    },
    typing(topic) {
      if (ready && follows.has(topic)) sendFrame({ type: "typing", topic });
    },
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      closed = true;
      window.removeEventListener("online", onOnline);
      if (retryTimer) clearTimeout(retryTimer);
      if (pingTimer) clearInterval(pingTimer);
      socket?.close(1000, "signed out");
      socket = null;
    },
  };
}
