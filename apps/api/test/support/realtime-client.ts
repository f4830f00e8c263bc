import type { ServerFrame } from "@cove/contract/realtime.ts";
import WebSocket from "ws";

/** A test's WebSocket to /api/realtime: every frame it receives is kept, and a test waits for the one it expects. */
export interface RealtimeClient {
  socket: WebSocket;
  frames: ServerFrame[];
  send(frame: unknown): void;
  /** The first frame (already received or still to come) that matches, or a rejection after ms. */
  next(match: (frame: ServerFrame) => boolean, ms?: number): Promise<ServerFrame>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Signs in and subscribes; resolves once every topic is confirmed or refused. */
  join(token: string, topics?: string[]): Promise<void>;
  close(): void;
}

export async function connectRealtime(baseUrl: string): Promise<RealtimeClient> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/realtime`);
  const frames: ServerFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on("message", (data) => {
    frames.push(JSON.parse(String(data)) as ServerFrame);
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const w of waiters) w();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const client: RealtimeClient = {
    socket,
    frames,
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next(match, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (found) {
            cleanup();
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(frames).slice(0, 2000)}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    closed,
    async join(token, topics = []) {
      client.send({ type: "auth", token });
      await client.next((f) => f.type === "ready");
      for (const topic of topics) {
        client.send({ type: "subscribe", topic });
        await client.next((f) => (f.type === "subscribed" || f.type === "error") && f.topic === topic);
      }
    },
    close: () => socket.close(),
  };
  return client;
}
