import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type { AuditAction, AuditActorType } from "@cove/contract/audit.ts";
import type { ActorRef } from "@cove/contract/events.ts";
import { isUuid } from "@cove/contract/ids.ts";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { auditLog } from "../db/schema/audit.ts";
import { type Db, type Queryable, queryRows, type Tx } from "./db.ts";
import type { TenantCtx } from "./tenancy.ts";

/**
 * The audit log's writer (docs/decisions/2026-11-29-audit-log.md). Any module records an action with recordAudit (or
 * audit, for a service's ctx) in the transaction that does the action, so the entry commits or rolls back with it.
 * Entries of one organization form a hash chain: each carries the hash of the one before, and they are written one at
 * a time per organization (a transaction-scoped advisory lock, held to commit), so two concurrent actions cannot both
 * link to the same predecessor. Call it once the action's own writes are done: the chain's lock comes after every
 * other lock of the transaction (ARCHITECTURE.md, lock order), so a transaction holding it never waits for another.
 */

/** Who acted, as the log keeps it: the name is the one they had at the time. */
export interface AuditActor {
  type: AuditActorType;
  id: string;
  name: string;
}

/** The object an action was done to: its kind (e.g. "member", "api_key"), id, and a label a person recognises. */
export interface AuditObject {
  type: string;
  id?: string | null;
  label?: string | null;
}

export interface AuditEntryInput {
  orgId: string;
  /** An actor reference (ctx.actor: its name is looked up), or the actor with its name. */
  actor: ActorRef | AuditActor;
  action: AuditAction;
  object?: AuditObject | null;
  /** Small facts of the change (e.g. the role before and after). No secrets: the log is read by every admin. */
  details?: Record<string, unknown>;
  /** The client's address; by default the address of the request being answered (none for jobs). */
  address?: string | null;
}

const requestScope = new AsyncLocalStorage<{ address: string }>();

/**
 * Makes each request's client address (req.ip, which follows TRUST_PROXY) the address of the entries recorded while it
 * is answered, so no service has to pass it along.
 */
export function registerAuditAddress(app: FastifyInstance): void {
  app.addHook("onRequest", (req, _reply, done) => {
    requestScope.run({ address: req.ip }, done);
  });
}

/** The address of the request being answered, or null outside any request (jobs). */
export const requestAddress = (): string | null => requestScope.getStore()?.address ?? null;

const ACTOR_TYPES: Record<ActorRef["kind"], AuditActorType> = {
  staff: "member",
  api_key: "api_key",
  system: "system",
  contact: "customer",
};

async function nameOf(db: Queryable, orgId: string, type: AuditActorType, id: string): Promise<string> {
  const uuid = isUuid(id);
  const mine = sql`id = ${id} and organization_id = ${orgId}`;
  let query = null;
  if (uuid && type === "member")
    query = sql`select trim(first_name || ' ' || last_name) as name from users where ${mine}`;
  if (uuid && type === "api_key") query = sql`select name from api_keys where ${mine}`;
  if (uuid && type === "customer")
    query = sql`select coalesce(nullif(name, ''), email) as name from contacts where ${mine}`;
  if (!query) return id;
  const [row] = await queryRows<{ name: string | null }>(db, query);
  return row?.name || id;
}

async function resolveActor(db: Queryable, orgId: string, actor: ActorRef | AuditActor): Promise<AuditActor> {
  if ("type" in actor) return actor;
  const type = ACTOR_TYPES[actor.kind];
  return { type, id: actor.id, name: await nameOf(db, orgId, type, actor.id) };
}

/** Keys sorted at every level, so a value reads the same before and after a round trip through jsonb. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object" && !(value instanceof Date)) return canonicalRecord({ ...value });
  return value;
}

function canonicalRecord(value: Record<string, unknown>): Record<string, unknown> {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return Object.fromEntries(
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]),
  );
}

type StoredEntry = typeof auditLog.$inferSelect;

/** sha256 (hex) of an entry's canonical form, its previous entry's hash included. */
export function entryHash(e: Omit<StoredEntry, "hash">): string {
  const form = JSON.stringify([
    1,
    e.organizationId,
    String(e.id),
    e.createdAt.toISOString(),
    e.actorType,
    e.actorId,
    e.actorName,
    e.action,
    e.objectType,
    e.objectId,
    e.objectLabel,
    e.address,
    canonical(e.details),
    e.prevHash,
  ]);
  return createHash("sha256").update(form).digest("hex");
}

/** Takes the organization's chain lock (to commit) and reads the next id and the hash of the newest entry. */
async function chainHead(tx: Tx, orgId: string): Promise<{ id: number; prevHash: string | null }> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cove-audit:${orgId}`}::text, 0))`);
  const [row] = await queryRows<{ id: string; prev: string | null }>(
    tx,
    sql`select nextval('audit_log_id_seq')::text as id,
               (select hash from audit_log where organization_id = ${orgId}::uuid order by id desc limit 1) as prev`,
  );
  if (!row) throw new Error("audit chain head returned nothing");
  return { id: Number(row.id), prevHash: row.prev };
}

/** Writes one audit entry in tx, the transaction of the action it records. */
export async function recordAudit(tx: Tx, entry: AuditEntryInput): Promise<void> {
  const actor = await resolveActor(tx, entry.orgId, entry.actor);
  const { id, prevHash } = await chainHead(tx, entry.orgId);
  const row = {
    id,
    organizationId: entry.orgId,
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action: entry.action,
    objectType: entry.object?.type ?? null,
    objectId: entry.object?.id ?? null,
    objectLabel: entry.object?.label ?? null,
    address: entry.address === undefined ? requestAddress() : entry.address,
    details: canonicalRecord(entry.details ?? {}),
    createdAt: new Date(),
    prevHash,
  };
  await tx.insert(auditLog).values({ ...row, hash: entryHash(row) });
}

/**
 * An entry for something that happened outside any transaction of its own (a refused sign-in: nothing was changed, but
 * the attempt is the fact): written in a transaction of its own.
 */
export function recordAuditAlone(db: Db, entry: AuditEntryInput): Promise<void> {
  return db.transaction((tx) => recordAudit(tx, entry));
}

/** recordAudit for a service: the ctx's organization, actor and transaction. */
export function audit(
  ctx: Pick<TenantCtx, "orgId" | "actor" | "db">,
  action: AuditAction,
  object?: AuditObject | null,
  details?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(ctx.db, { orgId: ctx.orgId, actor: ctx.actor, action, object, details });
}

export type ChainCheck =
  | { intact: true; checked: number }
  | { intact: false; checked: number; brokenAt: string; reason: string };

const VERIFY_BATCH = 1000;

/**
 * Walks an organization's chain from its oldest kept entry (older ones may have been deleted by the retention job,
 * so the oldest one's link to its predecessor is taken as it is): every entry's hash must match its contents, and
 * every later entry must link to the hash of the one before it.
 */
export async function verifyChain(db: Queryable, orgId: string): Promise<ChainCheck> {
  let checked = 0;
  let previous: string | null | undefined;
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, orgId), gt(auditLog.id, after)))
      .orderBy(asc(auditLog.id))
      .limit(VERIFY_BATCH);
    for (const row of rows) {
      const brokenAt = String(row.id);
      if (previous !== undefined && row.prevHash !== previous) {
        return { intact: false, checked, brokenAt, reason: "This entry does not follow the one before it." };
      }
      const { hash, ...rest } = row;
      if (entryHash(rest) !== hash) {
        return { intact: false, checked, brokenAt, reason: "This entry was changed after it was written." };
      }
      previous = hash;
      checked += 1;
    }
    const last = rows.at(-1);
    if (!last || rows.length < VERIFY_BATCH) return { intact: true, checked };
    after = last.id;
  }
}

/** The newest entry of an organization (tests and the verify answer's context). */
export async function newestEntry(db: Queryable, orgId: string): Promise<StoredEntry | undefined> {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.organizationId, orgId))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}
