import type { ActorKind, ActorRef, DomainEvent, EventType } from "@cove/contract/events.ts";
import type { ServerFrame } from "@cove/contract/realtime.ts";
import type { WebSocket } from "ws";
import type { AnyPrincipal } from "./tenancy.ts";

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

export interface Identity {
  actor: ActorRef;
  /** Shown to other staff on a ticket (staff only). */
  name: string;
}

/** One open socket: who it is once signed in, what it follows, and its frame allowance. */
export interface Conn {
  socket: WebSocket;
  principal: AnyPrincipal | null;
  identity: Identity | null;
  /** Internal topic key -> the topic as the client named it. */
  topics: Map<string, string>;
  tokens: number;
  refilledAt: number;
}

export const send = (socket: WebSocket, frame: ServerFrame) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
};

export const close = (conn: Conn, code: number, reason: string) => {
  if (conn.socket.readyState === conn.socket.OPEN || conn.socket.readyState === conn.socket.CONNECTING) {
    conn.socket.close(code, reason);
  }
};

export const actorKey = (a: ActorRef) => `${a.kind}:${a.id}`;

/**
 * This instance's sockets and what they follow: the topics modules declare, the routes from events to topics, and the
 * subscribers of each internal key (`<org>|<topic>`).
 */
export class RealtimeHub implements Realtime {
  readonly specs = new Map<string, TopicSpec>();
  readonly conns = new Set<Conn>();
  private readonly routes = new Map<EventType, ((event: DomainEvent) => EventRoute[])[]>();
  private readonly subscribers = new Map<string, Set<Conn>>();

  topic(spec: TopicSpec): void {
    this.specs.set(spec.name, spec);
  }

  route<T extends EventType>(types: readonly T[], to: (event: DomainEvent<T>) => EventRoute[]): void {
    for (const type of types) {
      const list = this.routes.get(type) ?? [];
      list.push(to as (event: DomainEvent) => EventRoute[]);
      this.routes.set(type, list);
    }
  }

  stats() {
    return { sockets: this.conns.size, topics: this.subscribers.size };
  }

  subscribersOf(key: string): ReadonlySet<Conn> {
    return this.subscribers.get(key) ?? new Set();
  }

  isFollowed(key: string): boolean {
    return this.subscribers.has(key);
  }

  add(conn: Conn, key: string, clientTopic: string): void {
    conn.topics.set(key, clientTopic);
    const set = this.subscribers.get(key) ?? new Set<Conn>();
    set.add(conn);
    this.subscribers.set(key, set);
  }

  /** Removes the subscription; answers the key's remaining subscribers on this instance. */
  remove(conn: Conn, key: string): ReadonlySet<Conn> {
    conn.topics.delete(key);
    const set = this.subscribers.get(key);
    set?.delete(conn);
    if (set?.size === 0) this.subscribers.delete(key);
    return set ?? new Set();
  }

  /** The topic kind behind an internal key. */
  specOfKey(key: string): TopicSpec | undefined {
    const topic = key.slice(key.indexOf("|") + 1);
    return this.specs.get(topic.split(":")[0] ?? "");
  }

  /** Sends a committed event to this instance's sockets that follow one of its topics and may see it; answers how many. */
  fanOut(event: DomainEvent): number {
    let sent = 0;
    for (const to of this.routes.get(event.type) ?? []) {
      for (const { topic, kinds } of to(event)) {
        const key = `${event.organization_id}|${topic}`;
        for (const conn of this.subscribers.get(key) ?? []) {
          const kind = conn.principal?.kind;
          if (!kind || (kinds && !kinds.includes(kind))) continue;
          const clientTopic = conn.topics.get(key);
          if (!clientTopic) continue;
          sent++;
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
    return sent;
  }
}
