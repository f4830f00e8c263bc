import { randomUUID } from "node:crypto";
import type { ActorKind, ActorRef, DomainEvent, EventType } from "@cove/contract/events.ts";
import {
  CLOSE,
  type ClientFrame,
  clientFrameSchema,
  REALTIME_LIMITS,
  REALTIME_PATH,
  type ServerFrame,
  type Viewer,
} from "@cove/contract/realtime.ts";
import websocket from "@fastify/websocket";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import type { Authenticator } from "./auth.ts";
import { type Database, queryRows } from "./db.ts";
import { EVENTS_CHANNEL, type EventBus, readAnnouncement, toDomainEvent } from "./events.ts";
import type { AnyPrincipal } from "./tenancy.ts";

/**
 * The realtime fan-out (ENGINEERING.md section 4b). Browsers hold one WebSocket at /api/realtime, authenticate in their
 * first frame with the same function as HTTP routes, and subscribe to topics that modules declare here. Committed
 * events reach every instance through LISTEN (PostgreSQL NOTIFY, or PGlite's in-process equivalent); each instance
 * forwards them to its own sockets subscribed to the event's topics. Events carry ids and small patches only: a
 * browser refetches what it shows through the HTTP API, with its own rights.
 *
 * Presence (who views a ticket, who is replying) is state, not an event: each instance announces its own viewers on
 * a second channel, again every few seconds, and forgets viewers no instance has announced lately, so a closed tab or
 * a crashed instance disappears within seconds.
 */

export const PRESENCE_CHANNEL = "cove_presence";
/** How often an instance announces its viewers again, and how long an unannounced viewer is kept. */
const PRESENCE_HEARTBEAT_MS = 4_000;
const PRESENCE_TTL_MS = 10_000;
/** How long a "typing" stays on after the last typing frame. */
const TYPING_TTL_MS = 5_000;
/** How often every socket's session is checked again (a revoked session's socket closes within this). */
const SESSION_CHECK_MS = 3_000;

/** A kind of topic a module offers: `name` alone, or `name:<argument>`. */
export interface TopicSpec {
  name: string;
  /** Which actors may subscribe (staff unless listed). */
  actors?: readonly ActorKind[];
  /** Whether the topic takes an argument (e.g. ticket:<id>). */
  withArgument: boolean;
  /**
   * The subscription's internal name within the actor's organization (e.g. notifications -> notifications:<user id>),
   * or null when the actor may not have it; it is answered as not found, whether it exists or not.
   */
  authorize(principal: AnyPrincipal, argument: string | null): Promise<string | null>;
  /** Viewers of this topic are shared with its other subscribers (staff only). */
  presence?: boolean;
  /**
   * Contacts take part in this topic's presence too (a visitor in its own chat): staff see them and their typing, and
   * they see the staff's typing, with no member's id and only a first name.
   */
  contactPresence?: boolean;
}

/** Where an event goes: internal topic names within its organization, and who of their subscribers may see it. */
export interface EventRoute {
  topic: string;
  /** Only subscribers of these kinds receive it (all when absent). */
  kinds?: readonly ActorKind[];
}

export interface Realtime {
  topic(spec: TopicSpec): void;
  route<T extends EventType>(types: readonly T[], to: (event: DomainEvent<T>) => EventRoute[]): void;
  /** Open sockets on this instance (for the benchmark and diagnostics). */
  stats(): { sockets: number; topics: number };
}

interface Identity {
  actor: ActorRef;
  /** Shown to other staff on a ticket (staff only). */
  name: string;
}

interface Conn {
  socket: WebSocket;
  principal: AnyPrincipal | null;
  identity: Identity | null;
  /** Internal topic key -> the topic as the client named it. */
  topics: Map<string, string>;
  tokens: number;
  refilledAt: number;
}

interface Sighting {
  name: string;
  seenAt: number;
  typingUntil: number;
  /** A contact (a visitor), not a member. */
  contact: boolean;
}

const send = (socket: WebSocket, frame: ServerFrame) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
};

const actorKey = (a: ActorRef) => `${a.kind}:${a.id}`;

export async function registerRealtime(
  app: FastifyInstance,
  deps: { database: Database; bus: EventBus; authenticator: Authenticator },
): Promise<Realtime> {
  const { database, bus, authenticator } = deps;
  const log: FastifyBaseLogger = app.log;
  const instance = randomUUID();
  const specs = new Map<string, TopicSpec>();
  const routes = new Map<EventType, ((event: DomainEvent) => EventRoute[])[]>();
  /** Internal key (`<org>|<topic>`) -> its subscribed sockets on this instance. */
  const subscribers = new Map<string, Set<Conn>>();
  const conns = new Set<Conn>();
  const perActor = new Map<string, number>();
  /** Presence: key -> viewer key (`<instance>|<user>`) -> when last announced. */
  const sightings = new Map<string, Map<string, Sighting>>();

  const realtime: Realtime = {
    topic(spec) {
      specs.set(spec.name, spec);
    },
    route(types, to) {
      for (const type of types) {
        const list = routes.get(type) ?? [];
        list.push(to as (event: DomainEvent) => EventRoute[]);
        routes.set(type, list);
      }
    },
    stats: () => ({ sockets: conns.size, topics: subscribers.size }),
  };

  // --- events -------------------------------------------------------------------------------------------------

  const fanOut = (event: DomainEvent) => {
    for (const to of routes.get(event.type) ?? []) {
      for (const { topic, kinds } of to(event)) {
        const key = `${event.organization_id}|${topic}`;
        for (const conn of subscribers.get(key) ?? []) {
          const kind = conn.principal?.kind;
          if (!kind || (kinds && !kinds.includes(kind))) continue;
          const clientTopic = conn.topics.get(key);
          if (!clientTopic) continue;
          send(conn.socket, {
            type: "event",
            topic: clientTopic,
            event: {
              id: event.id,
              type: event.type,
              actor: event.actor,
              occurred_at: event.occurred_at,
              data: event.data,
            },
          });
        }
      }
    }
  };
  bus.listen(fanOut);
  // Deactivations and role changes end sockets at once rather than at the next periodic check.
  bus.listen((event) => {
    if (event.type === "member.changed") void checkSessions();
  });

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

  // --- presence -----------------------------------------------------------------------------------------------

  const viewersOf = (key: string, staffOnly = false): Map<string, Viewer> => {
    const now = Date.now();
    const viewers = new Map<string, Viewer>();
    for (const [who, seen] of sightings.get(key) ?? []) {
      if (staffOnly && seen.contact) continue;
      const userId = who.slice(who.indexOf("|") + 1);
      const typing = seen.typingUntil > now;
      const known = viewers.get(userId);
      viewers.set(userId, { user_id: userId, name: seen.name, avatar_url: null, typing: typing || !!known?.typing });
    }
    return viewers;
  };

  /** A contact sees the members on its topic with no id and by first name only. */
  const NO_ID = "00000000-0000-0000-0000-000000000000";
  const viewersFor = (conn: Conn, key: string): Viewer[] => {
    const kind = conn.identity?.actor.kind;
    if (kind === "contact") {
      return [...viewersOf(key, true).values()].map((v) => ({
        ...v,
        user_id: NO_ID,
        name: v.name.split(" ")[0] ?? "",
      }));
    }
    const mine = conn.identity?.actor.id;
    return [...viewersOf(key).values()].filter((v) => v.user_id !== mine);
  };

  const lastSent = new Map<string, string>();
  const publishPresence = (key: string) => {
    const viewers = viewersOf(key);
    const signature = JSON.stringify([...viewers.values()].sort((a, b) => a.user_id.localeCompare(b.user_id)));
    if (lastSent.get(key) === signature) return;
    if (viewers.size === 0) lastSent.delete(key);
    else lastSent.set(key, signature);
    for (const conn of subscribers.get(key) ?? []) {
      const clientTopic = conn.topics.get(key);
      if (!clientTopic || !conn.identity || !takesPart(conn.identity, key)) continue;
      send(conn.socket, { type: "presence", topic: clientTopic, viewers: viewersFor(conn, key) });
    }
  };

  const announce = (key: string, identity: Identity, state: "view" | "typing" | "leave") =>
    database
      .executeSql("select pg_notify($1, $2)", [
        PRESENCE_CHANNEL,
        JSON.stringify({
          k: key,
          u: identity.actor.id,
          n: identity.name.slice(0, 120),
          i: instance,
          s: state,
          c: identity.actor.kind === "contact",
        }),
      ])
      .catch((err) => log.warn({ err }, "presence announcement failed"));

  const onPresence = (payload: string) => {
    let value: { k?: unknown; u?: unknown; n?: unknown; i?: unknown; s?: unknown; c?: unknown };
    try {
      value = JSON.parse(payload);
    } catch {
      return;
    }
    const { k, u, n, i, s, c } = value;
    if (typeof k !== "string" || typeof u !== "string" || typeof n !== "string" || typeof i !== "string") return;
    if (!subscribers.has(k) && !sightings.has(k)) return;
    const who = `${i}|${u}`;
    const seen = sightings.get(k) ?? new Map<string, Sighting>();
    if (s === "leave") seen.delete(who);
    else {
      const now = Date.now();
      const previous = seen.get(who);
      seen.set(who, {
        name: n,
        seenAt: now,
        typingUntil: s === "typing" ? now + TYPING_TTL_MS : (previous?.typingUntil ?? 0),
        contact: c === true,
      });
    }
    if (seen.size === 0) sightings.delete(k);
    else sightings.set(k, seen);
    publishPresence(k);
  };

  /**
   * This instance's viewers: (key, identity) for each staff socket on a presence topic. Contacts are announced only
   * while they type: a heartbeat for every connected visitor would cost a NOTIFY each per interval.
   */
  const localViewers = () => {
    const found = new Map<string, { key: string; identity: Identity }>();
    for (const conn of conns) {
      const identity = conn.identity;
      if (identity?.actor.kind !== "staff") continue;
      for (const key of conn.topics.keys()) {
        if (!takesPart(identity, key)) continue;
        found.set(`${key}#${identity.actor.id}`, { key, identity });
      }
    }
    return [...found.values()];
  };

  const specOfKey = (key: string) => {
    const topic = key.slice(key.indexOf("|") + 1);
    return specs.get(topic.split(":")[0] ?? "");
  };
  /** Staff on any presence topic; contacts only on those that admit them to it. */
  const takesPart = (identity: Identity, key: string) => {
    const spec = specOfKey(key);
    if (!spec?.presence) return false;
    return identity.actor.kind === "staff" || (identity.actor.kind === "contact" && spec.contactPresence === true);
  };

  const heartbeat = setInterval(() => {
    for (const { key, identity } of localViewers()) void announce(key, identity, "view");
    const now = Date.now();
    for (const [key, seen] of sightings) {
      for (const [who, s] of seen) if (now - s.seenAt > PRESENCE_TTL_MS) seen.delete(who);
      if (seen.size === 0) sightings.delete(key);
      publishPresence(key);
    }
  }, PRESENCE_HEARTBEAT_MS);
  heartbeat.unref();

  // --- sessions -----------------------------------------------------------------------------------------------

  const close = (conn: Conn, code: number, reason: string) => {
    if (conn.socket.readyState === conn.socket.OPEN || conn.socket.readyState === conn.socket.CONNECTING) {
      conn.socket.close(code, reason);
    }
  };

  /** Closes the sockets whose session has ended (revoked, expired, user deactivated): one statement per kind. */
  const checkSessions = async () => {
    const staff = new Map<string, Conn[]>();
    const contacts = new Map<string, Conn[]>();
    for (const conn of conns) {
      const p = conn.principal;
      if (!p || p.kind === "api_key") continue;
      const map = p.kind === "staff" ? staff : contacts;
      map.set(p.sessionId, [...(map.get(p.sessionId) ?? []), conn]);
    }
    const live = new Set<string>();
    try {
      if (staff.size > 0) {
        const rows = await queryRows<{ id: string }>(
          database.db,
          sql`select s.id from sessions s join users u on u.id = s.user_id
              where s.id = any(string_to_array(${[...staff.keys()].join(",")}::text, ',')::uuid[])
                and s.expires_at > now() and u.status = 'active'`,
        );
        for (const r of rows) live.add(r.id);
      }
      if (contacts.size > 0) {
        const rows = await queryRows<{ id: string }>(
          database.db,
          sql`select id from contact_sessions
              where id = any(string_to_array(${[...contacts.keys()].join(",")}::text, ',')::uuid[])
                and expires_at > now()`,
        );
        for (const r of rows) live.add(r.id);
      }
    } catch (err) {
      log.warn({ err }, "realtime session check failed");
      return;
    }
    for (const [sessionId, list] of [...staff, ...contacts]) {
      if (live.has(sessionId)) continue;
      for (const conn of list) close(conn, CLOSE.unauthorized, "Your session has ended. Please sign in again.");
    }
  };
  let checking = false;
  const sessionTimer = setInterval(() => {
    if (checking) return;
    checking = true;
    void checkSessions().finally(() => {
      checking = false;
    });
  }, SESSION_CHECK_MS);
  sessionTimer.unref();

  // --- frames -------------------------------------------------------------------------------------------------

  const identify = async (principal: AnyPrincipal): Promise<Identity> => {
    if (principal.kind === "staff") {
      const [me] = await queryRows<{ name: string }>(
        database.db,
        sql`select trim(first_name || ' ' || last_name) as name from users where id = ${principal.userId}`,
      );
      return { actor: { kind: "staff", id: principal.userId }, name: me?.name ?? "A teammate" };
    }
    if (principal.kind === "contact") {
      // The name staff see when a visitor is in its chat (presence topics that admit contacts).
      const [me] = await queryRows<{ name: string }>(
        database.db,
        sql`select name from contacts where id = ${principal.contactId} and organization_id = ${principal.orgId}`,
      );
      return { actor: { kind: "contact", id: principal.contactId }, name: me?.name ?? "Visitor" };
    }
    return { actor: { kind: "api_key", id: principal.keyId }, name: "" };
  };

  const subscribe = async (conn: Conn, clientTopic: string) => {
    const principal = conn.principal;
    if (!principal || !conn.identity) return;
    const colon = clientTopic.indexOf(":");
    const name = colon === -1 ? clientTopic : clientTopic.slice(0, colon);
    const argument = colon === -1 ? null : clientTopic.slice(colon + 1);
    const spec = specs.get(name);
    if (!spec || spec.withArgument !== (argument !== null)) {
      return send(conn.socket, {
        type: "error",
        code: "UNKNOWN_TOPIC",
        message: `There is no topic called "${clientTopic.slice(0, 80)}".`,
        topic: clientTopic,
      });
    }
    const allowed = spec.actors ?? ["staff"];
    const internal = allowed.includes(principal.kind) ? await spec.authorize(principal, argument) : null;
    if (!internal) {
      return send(conn.socket, {
        type: "error",
        code: "NOT_FOUND",
        message: "That does not exist, or you may not follow it.",
        topic: clientTopic,
      });
    }
    const key = `${principal.orgId}|${internal}`;
    if (!conn.topics.has(key) && conn.topics.size >= REALTIME_LIMITS.topicsPerSocket) {
      return send(conn.socket, {
        type: "error",
        code: "TOO_MANY_TOPICS",
        message: `A connection can follow at most ${REALTIME_LIMITS.topicsPerSocket} topics.`,
        topic: clientTopic,
      });
    }
    conn.topics.set(key, clientTopic);
    const set = subscribers.get(key) ?? new Set<Conn>();
    set.add(conn);
    subscribers.set(key, set);
    send(conn.socket, { type: "subscribed", topic: clientTopic });
    if (takesPart(conn.identity, key)) {
      if (conn.identity.actor.kind === "staff") await announce(key, conn.identity, "view");
      // The newcomer sees who is already there, even when the list did not change.
      send(conn.socket, { type: "presence", topic: clientTopic, viewers: viewersFor(conn, key) });
    }
  };

  const leave = (conn: Conn, key: string) => {
    conn.topics.delete(key);
    const set = subscribers.get(key);
    set?.delete(conn);
    if (set?.size === 0) subscribers.delete(key);
    const identity = conn.identity;
    if (identity?.actor.kind !== "staff" || !takesPart(identity, key)) return;
    // Still there in another tab of this instance: nothing to announce.
    for (const other of set ?? [])
      if (other.identity && actorKey(other.identity.actor) === actorKey(identity.actor)) return;
    void announce(key, identity, "leave");
  };

  const keyOf = (conn: Conn, clientTopic: string) => {
    for (const [key, topic] of conn.topics) if (topic === clientTopic) return key;
    return null;
  };

  const handle = async (conn: Conn, frame: ClientFrame) => {
    if (frame.type === "ping") return send(conn.socket, { type: "pong" });
    if (frame.type === "auth") {
      if (conn.principal) return;
      const principal = await authenticator.authenticate(frame.token, { fresh: true });
      if (!principal || principal.kind === "api_key") {
        return close(conn, CLOSE.unauthorized, "The sign-in token was refused. Please sign in again.");
      }
      const identity = await identify(principal);
      const who = actorKey(identity.actor);
      const open = perActor.get(who) ?? 0;
      if (open >= REALTIME_LIMITS.socketsPerActor) {
        return close(conn, CLOSE.policy, "Too many open connections. Close some tabs and reload.");
      }
      perActor.set(who, open + 1);
      conn.principal = principal;
      conn.identity = identity;
      return send(conn.socket, { type: "ready", actor: identity.actor });
    }
    if (!conn.principal) {
      return send(conn.socket, {
        type: "error",
        code: "NOT_AUTHENTICATED",
        message: "Send the auth frame first.",
      });
    }
    if (frame.type === "subscribe") return subscribe(conn, frame.topic);
    const key = keyOf(conn, frame.topic);
    if (frame.type === "unsubscribe") {
      if (key) leave(conn, key);
      return send(conn.socket, { type: "unsubscribed", topic: frame.topic });
    }
    // typing: only on a presence topic the sender follows.
    if (!key || !conn.identity || !takesPart(conn.identity, key)) {
      return send(conn.socket, {
        type: "error",
        code: "BAD_FRAME",
        message: "Typing is announced on a ticket you follow.",
        topic: frame.topic,
      });
    }
    await announce(key, conn.identity, "typing");
  };

  /** A token bucket per socket: framesPerSecond on average, twice that in a burst. */
  const allow = (conn: Conn) => {
    const now = Date.now();
    const rate = REALTIME_LIMITS.framesPerSecond;
    conn.tokens = Math.min(rate * 2, conn.tokens + ((now - conn.refilledAt) / 1000) * rate);
    conn.refilledAt = now;
    if (conn.tokens < 1) return false;
    conn.tokens -= 1;
    return true;
  };

  await app.register(websocket, { options: { maxPayload: REALTIME_LIMITS.maxFrameBytes } });

  app.get(
    REALTIME_PATH,
    // Authentication is the socket's first frame (a token never goes in a URL), checked in the handler.
    { websocket: true, config: { access: "public" }, schema: { hide: true } },
    (socket) => {
      const conn: Conn = {
        socket,
        principal: null,
        identity: null,
        topics: new Map(),
        tokens: REALTIME_LIMITS.framesPerSecond * 2,
        refilledAt: Date.now(),
      };
      conns.add(conn);
      const authTimer = setTimeout(() => {
        if (!conn.principal) close(conn, CLOSE.policy, "No sign-in received in time.");
      }, REALTIME_LIMITS.authTimeoutMs);
      // Frames of one socket are handled in order, one at a time.
      let queue = Promise.resolve();
      socket.on("message", (data, isBinary) => {
        if (!allow(conn)) return close(conn, CLOSE.policy, "Too many messages. Slow down and reconnect.");
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
            await handle(conn, frame);
          } catch (err) {
            log.error({ err }, "realtime frame failed");
            close(conn, 1011, "Something went wrong on our side. Reconnect.");
          }
        });
      });
      socket.on("close", () => {
        clearTimeout(authTimer);
        conns.delete(conn);
        for (const key of [...conn.topics.keys()]) leave(conn, key);
        if (conn.identity && conn.principal) {
          const who = actorKey(conn.identity.actor);
          const left = (perActor.get(who) ?? 1) - 1;
          if (left <= 0) perActor.delete(who);
          else perActor.set(who, left);
        }
      });
      socket.on("error", () => {});
    },
  );

  // --- lifetime -----------------------------------------------------------------------------------------------

  const resync = () => {
    // LISTEN was down for a while: every client refetches what it shows, as after its own reconnect.
    for (const conn of conns) close(conn, CLOSE.goingAway, "Live updates were interrupted. Reconnect.");
  };
  let stopEvents: (() => Promise<void>) | null = null;
  let stopPresence: (() => Promise<void>) | null = null;
  app.addHook("onReady", async () => {
    stopEvents = await database.listen(EVENTS_CHANNEL, (payload) => void onAnnouncement(payload), resync);
    stopPresence = await database.listen(PRESENCE_CHANNEL, onPresence);
  });
  app.addHook("preClose", async () => {
    clearInterval(heartbeat);
    clearInterval(sessionTimer);
    for (const conn of conns) close(conn, CLOSE.goingAway, "The server is restarting. Reconnect.");
    await stopEvents?.();
    await stopPresence?.();
  });

  return realtime;
}

declare module "fastify" {
  interface FastifyInstance {
    realtime: Realtime;
  }
}
