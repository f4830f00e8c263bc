import { randomUUID } from "node:crypto";
import type { Viewer } from "@cove/contract/realtime.ts";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "./db.ts";
import { type Conn, type Identity, type RealtimeHub, send } from "./realtime-hub.ts";

export const PRESENCE_CHANNEL = "cove_presence";
/** How often an instance announces its viewers again, and how long an unannounced viewer is kept. */
const PRESENCE_HEARTBEAT_MS = 4_000;
const PRESENCE_TTL_MS = 10_000;
/** How long a "typing" stays on after the last typing frame. */
const TYPING_TTL_MS = 5_000;
/** A contact sees the members on its topic with no id and by first name only. */
const NO_ID = "00000000-0000-0000-0000-000000000000";

interface Sighting {
  name: string;
  seenAt: number;
  typingUntil: number;
  /** A contact (a visitor), not a member. */
  contact: boolean;
}

/**
 * Who views a ticket and who is replying: state, not events. Each instance announces its own viewers on a channel of
 * their own, again every few seconds, and forgets viewers no instance announced lately, so a closed tab or a crashed
 * instance disappears within seconds.
 */
export class Presence {
  private readonly instance = randomUUID();
  /** Key -> viewer key (`<instance>|<user>`) -> when last announced. */
  private readonly sightings = new Map<string, Map<string, Sighting>>();
  private readonly lastSent = new Map<string, string>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: RealtimeHub,
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Staff on any presence topic; contacts only on those that admit them to it. */
  takesPart(identity: Identity, key: string): boolean {
    const spec = this.hub.specOfKey(key);
    if (!spec?.presence) return false;
    return identity.actor.kind === "staff" || (identity.actor.kind === "contact" && spec.contactPresence === true);
  }

  /** The viewers a socket is shown: others, and for a contact the members by first name with no id. */
  viewersFor(conn: Conn, key: string): Viewer[] {
    if (conn.identity?.actor.kind === "contact") {
      return [...this.viewersOf(key, true).values()].map((v) => ({
        ...v,
        user_id: NO_ID,
        name: v.name.split(" ")[0] ?? "",
      }));
    }
    const mine = conn.identity?.actor.id;
    return [...this.viewersOf(key).values()].filter((v) => v.user_id !== mine);
  }

  announce(key: string, identity: Identity, state: "view" | "typing" | "leave"): Promise<unknown> {
    const message = {
      k: key,
      u: identity.actor.id,
      n: identity.name.slice(0, 120),
      i: this.instance,
      s: state,
      c: identity.actor.kind === "contact",
    };
    return this.database
      .executeSql("select pg_notify($1, $2)", [PRESENCE_CHANNEL, JSON.stringify(message)])
      .catch((err) => this.log.warn({ err }, "presence announcement failed"));
  }

  /** An announcement from any instance (this one included). */
  receive(payload: string): void {
    let value: { k?: unknown; u?: unknown; n?: unknown; i?: unknown; s?: unknown; c?: unknown };
    try {
      value = JSON.parse(payload);
    } catch {
      return;
    }
    const { k, u, n, i, s, c } = value;
    if (typeof k !== "string" || typeof u !== "string" || typeof n !== "string" || typeof i !== "string") return;
    if (!this.hub.isFollowed(k) && !this.sightings.has(k)) return;
    const who = `${i}|${u}`;
    const seen = this.sightings.get(k) ?? new Map<string, Sighting>();
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
    if (seen.size === 0) this.sightings.delete(k);
    else this.sightings.set(k, seen);
    this.publish(k);
  }

  /** Announces this instance's viewers again and forgets the ones nobody announced lately. */
  start(): void {
    this.heartbeat = setInterval(() => {
      for (const { key, identity } of this.localViewers()) void this.announce(key, identity, "view");
      const now = Date.now();
      for (const [key, seen] of this.sightings) {
        for (const [who, s] of seen) if (now - s.seenAt > PRESENCE_TTL_MS) seen.delete(who);
        if (seen.size === 0) this.sightings.delete(key);
        this.publish(key);
      }
    }, PRESENCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  private viewersOf(key: string, staffOnly = false): Map<string, Viewer> {
    const now = Date.now();
    const viewers = new Map<string, Viewer>();
    for (const [who, seen] of this.sightings.get(key) ?? []) {
      if (staffOnly && seen.contact) continue;
      const userId = who.slice(who.indexOf("|") + 1);
      const typing = seen.typingUntil > now;
      const known = viewers.get(userId);
      viewers.set(userId, { user_id: userId, name: seen.name, avatar_url: null, typing: typing || !!known?.typing });
    }
    return viewers;
  }

  /** Sends the key's viewers to its subscribers when they changed since last sent. */
  private publish(key: string): void {
    const viewers = this.viewersOf(key);
    const signature = JSON.stringify([...viewers.values()].sort((a, b) => a.user_id.localeCompare(b.user_id)));
    if (this.lastSent.get(key) === signature) return;
    if (viewers.size === 0) this.lastSent.delete(key);
    else this.lastSent.set(key, signature);
    for (const conn of this.hub.subscribersOf(key)) {
      const clientTopic = conn.topics.get(key);
      if (!clientTopic || !conn.identity || !this.takesPart(conn.identity, key)) continue;
      send(conn.socket, { type: "presence", topic: clientTopic, viewers: this.viewersFor(conn, key) });
    }
  }

  /**
   * This instance's viewers: (key, identity) for each staff socket on a presence topic. Contacts are announced only
   * while they type: a heartbeat for every connected visitor would cost a NOTIFY each per interval.
   */
  private localViewers() {
    const found = new Map<string, { key: string; identity: Identity }>();
    for (const conn of this.hub.conns) {
      const identity = conn.identity;
      if (identity?.actor.kind !== "staff") continue;
      for (const key of conn.topics.keys()) {
        if (!this.takesPart(identity, key)) continue;
        found.set(`${key}#${identity.actor.id}`, { key, identity });
      }
    }
    return [...found.values()];
  }
}
