import { CLOSE, type ClientFrame, REALTIME_LIMITS } from "@cove/contract/realtime.ts";
import type { Authenticator } from "./auth.ts";
import type { Database } from "./db.ts";
import { actorKey, type Conn, close, type RealtimeHub, send } from "./realtime-hub.ts";
import type { Presence } from "./realtime-presence.ts";
import { identify } from "./realtime-sessions.ts";

/** What a socket's frames do: sign in, follow and leave topics, announce typing, answer pings. */
export class FrameHandler {
  /** Open sockets per actor, against REALTIME_LIMITS.socketsPerActor. */
  private readonly perActor = new Map<string, number>();

  constructor(
    private readonly hub: RealtimeHub,
    private readonly presence: Presence,
    private readonly authenticator: Authenticator,
    private readonly database: Database,
  ) {}

  async handle(conn: Conn, frame: ClientFrame): Promise<void> {
    if (frame.type === "ping") return send(conn.socket, { type: "pong" });
    if (frame.type === "auth") return this.signIn(conn, frame.token);
    if (!conn.principal) {
      return send(conn.socket, { type: "error", code: "NOT_AUTHENTICATED", message: "Send the auth frame first." });
    }
    if (frame.type === "subscribe") return this.subscribe(conn, frame.topic);
    const key = keyOf(conn, frame.topic);
    if (frame.type === "unsubscribe") {
      if (key) this.leave(conn, key);
      return send(conn.socket, { type: "unsubscribed", topic: frame.topic });
    }
    // typing: only on a presence topic the sender follows.
    if (!key || !conn.identity || !this.presence.takesPart(conn.identity, key)) {
      return send(conn.socket, {
        type: "error",
        code: "BAD_FRAME",
        message: "Typing is announced on a ticket you follow.",
        topic: frame.topic,
      });
    }
    await this.presence.announce(key, conn.identity, "typing");
  }

  /** A token bucket per socket: framesPerSecond on average, twice that in a burst. */
  allow(conn: Conn): boolean {
    const now = Date.now();
    const rate = REALTIME_LIMITS.framesPerSecond;
    conn.tokens = Math.min(rate * 2, conn.tokens + ((now - conn.refilledAt) / 1000) * rate);
    conn.refilledAt = now;
    if (conn.tokens < 1) return false;
    conn.tokens -= 1;
    return true;
  }

  /** The socket closed: it leaves its topics and gives back its place in its actor's allowance. */
  closed(conn: Conn): void {
    for (const key of [...conn.topics.keys()]) this.leave(conn, key);
    if (conn.identity && conn.principal) {
      const who = actorKey(conn.identity.actor);
      const left = (this.perActor.get(who) ?? 1) - 1;
      if (left <= 0) this.perActor.delete(who);
      else this.perActor.set(who, left);
    }
  }

  private async signIn(conn: Conn, token: string): Promise<void> {
    if (conn.principal) return;
    const principal = (await this.authenticator.authenticate(token, { fresh: true }))?.principal;
    if (!principal || principal.kind === "api_key") {
      return close(conn, CLOSE.unauthorized, "The sign-in token was refused. Please sign in again.");
    }
    if (principal.kind === "staff" && principal.enrolmentRequired) {
      // Until the member sets up the second factor their organization requires, they see nothing live either.
      return close(conn, CLOSE.policy, "Set up two-factor sign-in to continue.");
    }
    const identity = await identify(this.database, principal);
    const who = actorKey(identity.actor);
    const open = this.perActor.get(who) ?? 0;
    if (open >= REALTIME_LIMITS.socketsPerActor) {
      return close(conn, CLOSE.policy, "Too many open connections. Close some tabs and reload.");
    }
    this.perActor.set(who, open + 1);
    conn.principal = principal;
    conn.identity = identity;
    send(conn.socket, { type: "ready", actor: identity.actor });
  }

  private async subscribe(conn: Conn, clientTopic: string): Promise<void> {
    const principal = conn.principal;
    if (!principal || !conn.identity) return;
    const colon = clientTopic.indexOf(":");
    const name = colon === -1 ? clientTopic : clientTopic.slice(0, colon);
    const argument = colon === -1 ? null : clientTopic.slice(colon + 1);
    const spec = this.hub.specs.get(name);
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
    this.hub.add(conn, key, clientTopic);
    send(conn.socket, { type: "subscribed", topic: clientTopic });
    if (this.presence.takesPart(conn.identity, key)) {
      if (conn.identity.actor.kind === "staff") await this.presence.announce(key, conn.identity, "view");
      // The newcomer sees who is already there, even when the list did not change.
      send(conn.socket, { type: "presence", topic: clientTopic, viewers: this.presence.viewersFor(conn, key) });
    }
  }

  private leave(conn: Conn, key: string): void {
    const others = this.hub.remove(conn, key);
    const identity = conn.identity;
    if (identity?.actor.kind !== "staff" || !this.presence.takesPart(identity, key)) return;
    // Still there in another tab of this instance: nothing to announce.
    for (const other of others)
      if (other.identity && actorKey(other.identity.actor) === actorKey(identity.actor)) return;
    void this.presence.announce(key, identity, "leave");
  }
}

function keyOf(conn: Conn, clientTopic: string): string | null {
  for (const [key, topic] of conn.topics) if (topic === clientTopic) return key;
  return null;
}
