import type { Stored } from "./types.ts";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Cove's public chat API for one organization, called from the host page. */
export class ChatApi {
  constructor(
    /** Cove's origin (the script's, not the host page's). */
    readonly base: string,
    public slug: string,
  ) {}

  async call<T>(
    path: string,
    init: { method?: string; body?: unknown; token?: string | null; file?: File } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers["content-type"] = "application/json";
    if (init.file) headers["content-type"] = "application/octet-stream";
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${this.base}/api/public/${encodeURIComponent(this.slug)}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.file ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const data = (await res.json().catch(() => null)) as { error?: string } | null;
    if (!res.ok) throw new HttpError(res.status, data?.error ?? "Something went wrong. Please try again.");
    return data as T;
  }

  /** A chat file, fetched with the visitor's token. */
  async fileBlob(stored: Stored, id: string): Promise<Blob> {
    const res = await fetch(
      `${this.base}/api/public/${encodeURIComponent(this.slug)}/chat/sessions/${stored.sessionId}/files/${id}`,
      { headers: { authorization: `Bearer ${stored.token}` } },
    );
    if (!res.ok) throw new Error("The file could not be opened.");
    return res.blob();
  }

  // Storage may be blocked (private modes, third-party contexts): the chat then lasts as long as the page.
  readStored(): Stored | null {
    try {
      const raw = localStorage.getItem(this.storeKey());
      const value = raw ? (JSON.parse(raw) as Partial<Stored>) : null;
      return value?.token && value.sessionId ? { token: value.token, sessionId: value.sessionId } : null;
    } catch {
      return null;
    }
  }

  writeStored(value: Stored | null): void {
    try {
      if (value) localStorage.setItem(this.storeKey(), JSON.stringify(value));
      else localStorage.removeItem(this.storeKey());
    } catch {
      // Not kept: see above.
    }
  }

  private storeKey(): string {
    return `cove.chat.${this.slug}`;
  }
}

/**
 * The chat's live updates over Cove's socket: any change to the chat (refetched through the API) and who of the team
 * is typing. A dropped socket (a server restarting closes it with 1001) comes back after a growing, jittered wait; what
 * was missed is fetched once the subscription is confirmed, so no change falls between that read and the subscription.
 */
export class ChatFollow {
  private socket: WebSocket | null = null;
  private current: Stored | null = null;
  private retryMs = 1000;
  private typedAt = 0;

  constructor(
    private readonly base: string,
    private readonly on: { changed(): void; typing(names: string[]): void },
  ) {}

  start(stored: Stored): void {
    if (this.socket) return;
    this.current = stored;
    const ws = new WebSocket(`${this.base.replace(/^http/, "ws")}/api/realtime`);
    this.socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: stored.token }));
    ws.onmessage = (e) => {
      const frame = JSON.parse(String(e.data)) as { type: string };
      if (frame.type === "ready") {
        this.retryMs = 1000;
        ws.send(JSON.stringify({ type: "subscribe", topic: `chat_session:${stored.sessionId}` }));
      } else if (frame.type === "subscribed" || frame.type === "event") {
        this.on.changed();
      } else if (frame.type === "presence") {
        const viewers = (frame as { viewers?: { name: string; typing: boolean }[] }).viewers ?? [];
        this.on.typing(viewers.filter((v) => v.typing).map((v) => v.name || "Support"));
      }
    };
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = null;
      setTimeout(
        () => {
          if (this.current) this.start(this.current);
        },
        this.retryMs + Math.random() * 500,
      );
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
    };
  }

  stop(): void {
    this.current = null;
    this.socket?.close();
    this.socket = null;
  }

  /** Tells the team the visitor is typing, at most every two seconds. */
  typing(): void {
    const now = Date.now();
    const stored = this.current;
    if (!stored || this.socket?.readyState !== WebSocket.OPEN || now - this.typedAt < 2_000) return;
    this.typedAt = now;
    this.socket.send(JSON.stringify({ type: "typing", topic: `chat_session:${stored.sessionId}` }));
  }
}
