import { CLOSE, type ClientFrame, clientFrameSchema, REALTIME_LIMITS, REALTIME_PATH } from "@cove/contract/realtime.ts";
import websocket from "@fastify/websocket";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import type { Authenticator } from "./auth.ts";
import { type Database, queryRows } from "./db.ts";
import { EVENTS_CHANNEL, type EventBus, readAnnouncement, toDomainEvent } from "./events.ts";
import { FrameHandler } from "./realtime-frames.ts";
import { type Conn, close, type Realtime, RealtimeHub, send } from "./realtime-hub.ts";
import { PRESENCE_CHANNEL, Presence } from "./realtime-presence.ts";
import { SessionWatch } from "./realtime-sessions.ts";

export type { EventRoute, Realtime, TopicSpec } from "./realtime-hub.ts";

/**
 * The realtime fan-out (docs/engineering.md, Events). Browsers hold one WebSocket at /api/realtime, authenticate in their
 * first frame with the same function as HTTP routes, and subscribe to topics that modules declare here. Committed
 * events reach every instance through LISTEN (PostgreSQL NOTIFY, or PGlite's in-process equivalent); each instance
 * forwards them to its own sockets subscribed to the event's topics. Events carry ids and small patches only: a
 * browser refetches what it shows through the HTTP API, with its own rights.
 *
 * The parts: realtime-hub.ts (sockets, topics, the fan-out), realtime-presence.ts (who views and who types),
 * realtime-sessions.ts (a revoked session's sockets close), realtime-frames.ts (what a client's frames do). This file
 * wires them to the socket route and the two LISTEN channels.
 */

export async function registerRealtime(
  app: FastifyInstance,
  deps: { database: Database; bus: EventBus; authenticator: Authenticator },
): Promise<Realtime> {
  const { database, bus, authenticator } = deps;
  const hub = new RealtimeHub();
  const presence = new Presence(hub, database, app.log);
  const sessions = new SessionWatch(hub.conns, database, app.log);
  const frames = new FrameHandler(hub, presence, authenticator, database);

  bus.listen((event) => {
    if (hub.fanOut(event) > 0) app.metrics.eventDelivered(event.occurred_at);
  });
  app.metrics.countSockets(() => hub.conns.size);
  // Deactivations and role changes end sockets at once rather than at the next periodic check.
  bus.listen((event) => {
    if (event.type === "member.changed") void sessions.check();
  });

  /** A committed event from any instance: its id (read it) or, when small, the event itself. */
  const onAnnouncement = async (payload: string) => {
    const read = readAnnouncement(payload);
    if (!read) return;
    if ("ref" in read) {
      const [row] = await queryRows<Parameters<typeof toDomainEvent>[0]>(
        database.db,
        sql`select id, organization_id, type, actor_kind, actor_id, data, created_at from events where id = ${read.ref}`,
      );
      const event = row && toDomainEvent(row);
      if (event) bus.deliver(event);
      return;
    }
    bus.deliver(read);
  };

  let stopEvents: (() => Promise<void>) | null = null;
  let stopPresence: (() => Promise<void>) | null = null;
  // Before the websocket plugin's own preClose (hooks run in the order they were added), which would close every
  // socket without a code: each socket is told the server is going away (1001) and comes back elsewhere.
  app.addHook("preClose", async () => {
    presence.stop();
    sessions.stop();
    for (const conn of hub.conns) close(conn, CLOSE.goingAway, "The server is restarting. Reconnect.");
    await stopEvents?.();
    await stopPresence?.();
  });
  await app.register(websocket, { options: { maxPayload: REALTIME_LIMITS.maxFrameBytes } });
  app.get(
    REALTIME_PATH,
    // Authentication is the socket's first frame (a token never goes in a URL), checked in the handler.
    { websocket: true, config: { access: "public" }, schema: { hide: true } },
    (socket) => openSocket(socket, hub, frames, app.log),
  );

  // LISTEN was down for a while: every client refetches what it shows, as after its own reconnect.
  const resync = () => {
    for (const conn of hub.conns) close(conn, CLOSE.goingAway, "Live updates were interrupted. Reconnect.");
  };
  app.addHook("onReady", async () => {
    stopEvents = await database.listen(EVENTS_CHANNEL, (payload) => void onAnnouncement(payload), resync);
    stopPresence = await database.listen(PRESENCE_CHANNEL, (payload) => presence.receive(payload));
    presence.start();
    sessions.start();
  });
  return hub;
}

/** A new socket: it must sign in within the time allowed; its frames are handled in order, one at a time. */
function openSocket(socket: WebSocket, hub: RealtimeHub, frames: FrameHandler, log: FastifyInstance["log"]): void {
  const conn: Conn = {
    socket,
    principal: null,
    identity: null,
    topics: new Map(),
    tokens: REALTIME_LIMITS.framesPerSecond * 2,
    refilledAt: Date.now(),
  };
  hub.conns.add(conn);
  const authTimer = setTimeout(() => {
    if (!conn.principal) close(conn, CLOSE.policy, "No sign-in received in time.");
  }, REALTIME_LIMITS.authTimeoutMs);
  let queue = Promise.resolve();
  socket.on("message", (data, isBinary) => {
    if (!frames.allow(conn)) return close(conn, CLOSE.policy, "Too many messages. Slow down and reconnect.");
    queue = queue.then(async () => {
      let frame: ClientFrame;
      try {
        if (isBinary) throw new Error("binary");
        const parsed = clientFrameSchema.safeParse(JSON.parse(String(data)));
        if (!parsed.success) throw new Error("shape");
        frame = parsed.data;
      } catch {
        return send(socket, {
          type: "error",
          code: "BAD_FRAME",
          message: 'Frames are JSON objects such as {"type":"subscribe","topic":"tickets"}.',
        });
      }
      try {
        await frames.handle(conn, frame);
      } catch (err) {
        log.error({ err }, "realtime frame failed");
        close(conn, 1011, "Something went wrong on our side. Reconnect.");
      }
    });
  });
  socket.on("close", () => {
    clearTimeout(authTimer);
    hub.conns.delete(conn);
    frames.closed(conn);
  });
  socket.on("error", () => {});
}

declare module "fastify" {
  interface FastifyInstance {
    realtime: Realtime;
  }
}
