import {
  type ActorRef,
  type DomainEvent,
  EVENT_DATA,
  type EventData,
  type EventType,
  isEventType,
} from "@cove/contract/events.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ExecuteSql, Tx } from "./db.ts";
import type { JobAttempt, JobQueue, Jobs } from "./jobs.ts";

/**
 * Domain events (docs/engineering.md, "Events"). A service emits an event inside its transaction: the event is written
 * to the outbox (the events table) and announced with pg_notify in that same transaction, so it exists, and is
 * announced, exactly when its change commits. A rolled-back change emits nothing; a crash after commit loses nothing
 * (the outbox row and any queued jobs were committed with the change).
 *
 * Three kinds of consumer register here, by event type:
 * - in-transaction handlers run inside the emitting transaction, after the event is written, and may change more in
 *   it (automation, notifications); their failure fails the change, as it should: they are part of it;
 * - durable handlers run later from the job queue, each event once per handler, retried with backoff (mail,
 *   webhooks); a failure never reaches the request that emitted the event;
 * - listeners receive every committed event that reaches this instance through LISTEN (the realtime fan-out).
 */

/** The PostgreSQL channel committed events are announced on; every instance LISTENs to it. */
export const EVENTS_CHANNEL = "cove_events";
/** NOTIFY payloads must stay under 8000 bytes; a larger event is announced by reference and read from the outbox. */
const NOTIFY_MAX_BYTES = 7000;
/** In-transaction handlers that emit events which trigger handlers...: past this depth the chain stops. */
export const MAX_EMIT_DEPTH = 8;

export type Emit = <T extends EventType>(type: T, data: EventData<T>) => Promise<DomainEvent<T>>;

/** What an in-transaction handler gets: the emitting transaction's organization, actor and handle. */
export interface EventContext {
  orgId: string;
  actor: ActorRef;
  db: Tx;
  emit: Emit;
  /** How many emits deep this handler runs (0: the event came from the service itself). */
  depth: number;
  /**
   * The same transaction acting as Cove itself (e.g. "automation"), for a handler that changes things on its own
   * account: what it emits is attributed to the system and counts one level deeper.
   */
  asSystem(name: string): { orgId: string; actor: ActorRef; db: Tx; emit: Emit };
}

/** The role in-transaction handlers run as (as), and the role the transaction goes back to afterwards (back). */
export interface HandlersRole {
  as: string;
  back: string;
}

export type InTransactionHandler<T extends EventType> = (ctx: EventContext, event: DomainEvent<T>) => Promise<void>;
/** attempt says which try this is, so a handler can record a final failure (attempt.last) before it throws. */
export type DurableHandler<T extends EventType> = (event: DomainEvent<T>, attempt: JobAttempt) => Promise<void>;
export type EventListener = (event: DomainEvent) => void;

export interface DurableOptions {
  /** Attempts after the first (default 5). */
  retryLimit?: number;
  /** Seconds before the first retry, doubling after (default 5). */
  retryDelaySeconds?: number;
}

interface DurableEntry {
  types: ReadonlySet<EventType>;
  queue: JobQueue<DomainEvent>;
}

export interface EventBus {
  /** Runs handler in the emitting transaction for each event of these types. */
  onInTransaction<T extends EventType>(types: readonly T[], handler: InTransactionHandler<T>): void;
  /** Runs handler from the job queue after commit, for each event of these types, with retries. name names its queue. */
  onCommitted<T extends EventType>(
    name: string,
    types: readonly T[],
    handler: DurableHandler<T>,
    options?: DurableOptions,
  ): void;
  /** Every committed event announced to this instance (any organization). Returns a function that stops listening. */
  listen(listener: EventListener): () => void;
  /**
   * An emitter bound to a transaction, its organization and actor. handlersRole: the database role the in-transaction
   * handlers run as, and the one to return to after them (a contact's transaction: see withContact).
   */
  emitter(tx: Tx, orgId: string, actor: ActorRef, depth?: number, handlersRole?: HandlersRole): Emit;
  /** Delivers an announced event to the listeners (called by the LISTEN connection). */
  deliver(event: DomainEvent): void;
  /** Registers the durable handlers' queues; called once before the job queue starts. */
  attachJobs(jobs: Jobs): void;
}

/** Reads an outbox row into an event. */
export function toDomainEvent(row: {
  id: number | string;
  organization_id: string;
  type: string;
  actor_kind: string;
  actor_id: string;
  data: unknown;
  created_at: Date | string;
}): DomainEvent | null {
  if (!isEventType(row.type)) return null;
  const parsed = EVENT_DATA[row.type].safeParse(row.data);
  if (!parsed.success) return null;
  return {
    id: Number(row.id),
    type: row.type,
    organization_id: row.organization_id,
    actor: { kind: row.actor_kind as ActorRef["kind"], id: row.actor_id },
    occurred_at: new Date(row.created_at).toISOString(),
    data: parsed.data,
  } as DomainEvent;
}

export function createEventBus(log: FastifyBaseLogger): EventBus {
  const inTx = new Map<EventType, InTransactionHandler<EventType>[]>();
  const durable: DurableEntry[] = [];
  const listeners = new Set<EventListener>();
  const pendingWorkers: { queue: JobQueue<DomainEvent>; handler: DurableHandler<EventType> }[] = [];
  let jobs: Jobs | null = null;

  const bus: EventBus = {
    onInTransaction(types, handler) {
      for (const type of types) {
        const list = inTx.get(type) ?? [];
        list.push(handler as InTransactionHandler<EventType>);
        inTx.set(type, list);
      }
    },

    onCommitted(name, types, handler, options = {}) {
      if (jobs) throw new Error(`Register the durable handler ${name} before the job queue starts`);
      const queue: JobQueue<DomainEvent> = {
        name: `event-${name}`,
        retryLimit: options.retryLimit ?? 5,
        retryDelaySeconds: options.retryDelaySeconds ?? 5,
        retryBackoff: true,
        // The handlers send one email each (SMTP ends a send within 40 s, mail.ts): a job still active after a
        // minute belongs to an instance that died, and another takes it over (jobs.ts, MAINTENANCE_SECONDS).
        expireInSeconds: 60,
      };
      durable.push({ types: new Set(types), queue });
      pendingWorkers.push({ queue, handler: handler as DurableHandler<EventType> });
    },

    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    deliver(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (err) {
          log.error({ err, event: event.id }, "event listener failed");
        }
      }
    },

    attachJobs(queue) {
      for (const { queue: q, handler } of pendingWorkers) {
        queue.work(q, (event, attempt) => handler(event, attempt));
      }
      jobs = queue;
    },

    emitter(tx, orgId, actor, depth = 0, handlersRole) {
      const emit: Emit = async (type, data) => {
        if (depth >= MAX_EMIT_DEPTH) {
          throw new Error(`Event chain deeper than ${MAX_EMIT_DEPTH} at ${type}: a handler keeps triggering itself`);
        }
        // Validated here, so a malformed event fails the change that tried to emit it rather than its consumers.
        const checked = EVENT_DATA[type].parse(data) as EventData<typeof type>;
        const [row] = (
          (await tx.execute(
            sql`insert into events (organization_id, type, actor_kind, actor_id, data)
                values (${orgId}, ${type}, ${actor.kind}, ${actor.id}, ${JSON.stringify(checked)}::jsonb)
                returning id, created_at`,
          )) as { rows: { id: number | string; created_at: Date | string }[] }
        ).rows;
        if (!row) throw new Error("event insert returned nothing");
        const event = {
          id: Number(row.id),
          type,
          organization_id: orgId,
          actor: { kind: actor.kind, id: actor.id },
          occurred_at: new Date(row.created_at).toISOString(),
          data: checked,
        } as DomainEvent<typeof type>;
        await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${announcement(event)})`);
        for (const entry of durable) {
          if (!entry.types.has(type)) continue;
          if (!jobs) throw new Error("The job queue is not attached to the event bus");
          await jobs.send(tx, entry.queue, event);
        }
        const handlers = inTx.get(type) ?? [];
        if (handlers.length > 0) {
          const ctx: EventContext = {
            orgId,
            actor,
            db: tx,
            emit: bus.emitter(tx, orgId, actor, depth + 1),
            depth,
            asSystem: (name) => {
              const system: ActorRef = { kind: "system", id: name };
              return { orgId, actor: system, db: tx, emit: bus.emitter(tx, orgId, system, depth + 1) };
            },
          };
          // Handlers follow a change up on the organization's behalf (notify the assignee, run its rules), which may
          // need more than the actor's own rights (a customer cannot read the team); the actor's role comes back after.
          if (handlersRole) await tx.execute(sql`select set_config('role', ${handlersRole.as}::text, true)`);
          for (const handler of handlers) await handler(ctx, event);
          if (handlersRole) await tx.execute(sql`select set_config('role', ${handlersRole.back}::text, true)`);
        }
        return event;
      };
      return emit;
    },
  };
  return bus;
}

/** How long the outbox keeps events: long enough to look into what happened, short enough to stay small. */
export const OUTBOX_DAYS = 30;
const PURGE_QUEUE: JobQueue<object> = {
  name: "events-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** Deletes outbox events older than days, a few thousand at a time so no statement holds locks for long. */
export async function purgeOutbox(executeSql: ExecuteSql, days = OUTBOX_DAYS): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await executeSql(
      `DELETE FROM events WHERE id IN (
         SELECT id FROM events WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT 5000)`,
      [days],
    );
    total += rowCount;
    if (rowCount < 5000) return total;
  }
}

/** Purges the outbox once a day (pg-boss runs the schedule once across instances). */
export function scheduleOutboxPurge(jobs: Jobs, executeSql: ExecuteSql): void {
  jobs.work(PURGE_QUEUE, async () => {
    await purgeOutbox(executeSql);
  });
  jobs.schedule(PURGE_QUEUE, "17 3 * * *");
}

/** The NOTIFY payload: the event itself, or only its id and organization when it is too large to announce whole. */
function announcement(event: DomainEvent): string {
  const whole = JSON.stringify(event);
  if (Buffer.byteLength(whole) <= NOTIFY_MAX_BYTES) return whole;
  return JSON.stringify({ ref: event.id, organization_id: event.organization_id });
}

/** Reads a NOTIFY payload: the event, or a reference to read from the outbox (returned as its id). */
export function readAnnouncement(payload: string): DomainEvent | { ref: number } | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.ref === "number") return { ref: value.ref };
    if (typeof value.type !== "string" || !isEventType(value.type)) return null;
    const actor = value.actor as ActorRef | undefined;
    return toDomainEvent({
      id: value.id as number,
      organization_id: value.organization_id as string,
      type: value.type,
      actor_kind: actor?.kind ?? "system",
      actor_id: actor?.id ?? "",
      data: value.data,
      created_at: value.occurred_at as string,
    });
  } catch {
    return null;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    events: EventBus;
  }
}
