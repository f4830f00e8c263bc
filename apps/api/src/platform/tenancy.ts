import type { PlanId, Role } from "@cove/contract/constants.ts";
import type { ContactSessionKind } from "@cove/contract/contacts.ts";
import type { ActorRef } from "@cove/contract/events.ts";
import { type SQL, sql } from "drizzle-orm";
import { batched } from "./batch.ts";
import {
  CONTACT_ROLE,
  confinedRead,
  type Db,
  type Filled,
  filled,
  preparedRows,
  type Queryable,
  REQUEST_ROLE,
  type Statement,
  type Tx,
  transactionFrom,
  valuePlannedRows,
} from "./db.ts";
import { AppError } from "./errors.ts";
import { createEventBus, type Emit, type EventBus } from "./events.ts";
import { confined } from "./sql-log.ts";

export const SESSION_ENDED = "Your session has ended. Please sign in again.";
const KEY_REVOKED = "This API key has been revoked.";

/**
 * A signed-in staff member (agent or admin), as the session lookup found them. Principals are values: nothing
 * writes into them. What a transaction learns about the caller (their role as it is now, whether they must set up a
 * second factor) comes back in its context (Ctx), and whether the request's session was checked against the
 * database is recorded per request (platform/auth.ts).
 */
export interface Principal {
  readonly kind: "staff";
  readonly orgId: string;
  readonly userId: string;
  /** The role when the session was looked up (up to a minute ago): a transaction reads the current one (Ctx.role). */
  readonly role: Role;
  readonly sessionId: string;
  /**
   * The organization requires a second factor of this member, who has none yet: until they set it up, only the routes
   * of enrolment answer them (TWO_FACTOR_ENROLMENT_REQUIRED). Read with the session, and again by every tenant
   * transaction (Ctx.enrolmentRequired).
   */
  readonly enrolmentRequired?: boolean;
}

/**
 * An organization's customer signed in to the portal or chatting through the widget: their transactions run as the
 * contact role, whose row-level security policies confine them to their own rows (migration 0016).
 */
export interface ContactPrincipal {
  readonly kind: "contact";
  readonly orgId: string;
  readonly contactId: string;
  readonly sessionId: string;
  /** How the contact signed in: the portal (a magic link) or the chat widget (a visitor). */
  readonly sessionKind?: ContactSessionKind;
}

/** A key of the organization's public API (its resolver is registered by the module that issues keys). */
export interface ApiKeyPrincipal {
  readonly kind: "api_key";
  readonly orgId: string;
  readonly keyId: string;
  /** read: GET only; read_write: every route that admits API keys. */
  readonly scope: "read" | "read_write";
  /** The organization's plan when the key was looked up: it sets the key's request limit (platform/api-rate.ts). */
  readonly plan: PlanId;
}

/** Whoever a bearer token stands for. */
export type AnyPrincipal = Principal | ContactPrincipal | ApiKeyPrincipal;

/** What any tenant service receives: the organization, who acts, a transaction confined to both, and emit. */
export interface TenantCtx {
  orgId: string;
  actor: ActorRef;
  db: Tx;
  /** Writes a domain event in this transaction (platform/events.ts). */
  emit: Emit;
}

/**
 * What a staff service receives: a TenantCtx whose actor is the signed-in member, with their id and what the
 * transaction read of them: their role as it is now, and whether they must first set up a second factor.
 */
export interface Ctx extends TenantCtx {
  userId: string;
  role: Role;
  enrolmentRequired: boolean;
}

/** What a contact's service receives: a TenantCtx whose actor is the contact. */
export interface ContactCtx extends TenantCtx {
  contactId: string;
}

// The database roles request work runs as live in db.ts (the job queue grants them too, and must not import this file).
export { CONTACT_ROLE, REQUEST_ROLE } from "./db.ts";

/**
 * The event bus of each database handle, attached when the app is built (buildApp). A handle without one (a script
 * or a benchmark that calls services directly) still writes and announces its events, with no handlers.
 */
const buses = new WeakMap<Db, EventBus>();
const silentLog = { error: () => {} } as unknown as Parameters<typeof createEventBus>[0];

export function attachEventBus(db: Db, bus: EventBus): void {
  buses.set(db, bus);
}

function busOf(db: Db): EventBus {
  let bus = buses.get(db);
  if (!bus) {
    bus = createEventBus(silentLog);
    buses.set(db, bus);
  }
  return bus;
}

/**
 * The session exists, has not expired, and belongs to an active user of the organization (s: sessions, u: users).
 * The ids are SQL: parameters for one principal, or the columns of a list of principals.
 */
const liveSession = (sessionId: SQL, orgId: SQL, userId: SQL) =>
  sql`s.id = ${sessionId} and s.organization_id = ${orgId} and u.id = ${userId}
      and s.expires_at > now() and u.status = 'active'`;

/**
 * Whether an organization's two-factor policy applies to a member who has not set up a second factor (u: users,
 * o: organizations): such a member may only enrol (platform/auth.ts).
 */
export const enrolmentRequiredSql = sql`(o.two_factor_policy = 'everyone' or (o.two_factor_policy = 'admins' and u.role = 'admin'))
  and not exists (select 1 from two_factor t where t.user_id = u.id and t.enabled_at is not null)`;

/**
 * Confines a transaction to an organization and, for a signed-in caller, checks in the same statement that the
 * session is still valid: it exists, has not expired, and its user is active. It answers the user's role as it is
 * now (null: the session no longer counts), and whether the member must first set up a second factor. Every request
 * pays for this statement, so it is a prepared one (planned once per connection), built once with its values apart
 * (Filled, in db.ts), and on PostgreSQL it goes in the same round trip as the transaction's BEGIN (transactionFrom).
 * The check runs as the connecting role: the statement's subquery is planned and its permissions checked before set_config switches to the request role. JIT compiling is off: it pays off for long
 * analytical queries, never for a request's short ones, where it can add tens of milliseconds to a plan that crosses
 * its cost threshold.
 */
const confineSettings = sql`select set_config('app.org_id', ${sql.placeholder("org")}::text, true), set_config('role', ${REQUEST_ROLE}::text, true),
                              set_config('jit', 'off', true)`;
const confineLive = liveSession(
  sql`${sql.placeholder("session")}::uuid`,
  sql`${sql.placeholder("org")}::uuid`,
  sql`${sql.placeholder("user")}::uuid`,
);
/** The confining statement with the session check; confineSettings alone confines work with no session to check. */
const confineChecking = sql`${confineSettings}, (select u.role from sessions s join users u on u.id = s.user_id where ${confineLive}) as role,
        (select ${enrolmentRequiredSql} from sessions s join users u on u.id = s.user_id
           join organizations o on o.id = u.organization_id where ${confineLive}) as enrol`;

function confineSql(orgId: string, session?: { sessionId: string; userId: string }): Filled {
  if (!session) return filled(confineSettings, { org: orgId });
  return filled(confineChecking, { org: orgId, session: session.sessionId, user: session.userId });
}

/** A transaction confined to an organization (confineSql), with no one's session to check. */
function confinedTransaction<T>(db: Db, orgId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transactionFrom(db, confineSql(orgId), (tx) => fn(tx));
}

/** What a cached read checks before serving a stored answer (platform/answer-cache.ts). */
export interface DataState {
  /** The user's role as it is now. */
  role: Role;
  /** The organization's data version: the sum of its data_versions shards (0 until its first change). */
  version: string;
  /** The organization's time zone and its date there, for answers that count "today" or "this week". */
  day: string;
  /** The member must set up a second factor first (enrolmentRequiredSql). */
  enrol: boolean;
}

/**
 * The session check of confine together with the organization's data version, for many principals in one statement
 * outside any transaction: the answer at each index is that principal's state, or null when its session no longer
 * counts. Like the session lookup it runs as the owner role and reads only rows found by the principals' ids. The ids
 * go in as three comma-separated lists (they are uuids from the session lookup), which both drivers take as one text
 * parameter each.
 */
export async function readDataStates(db: Db, who: readonly Principal[]): Promise<(DataState | null)[]> {
  const ids = (pick: (p: Principal) => string) => who.map(pick).join(",");
  const rows = await preparedRows<DataState & { i: number }>(
    db,
    sql`select w.i::int as i, u.role,
               (select coalesce(sum(d.version), 0) from data_versions d
                where d.organization_id = s.organization_id)::text as version,
               o.timezone || ' ' || to_char(now() at time zone o.timezone, 'YYYY-MM-DD') as day,
               ${enrolmentRequiredSql} as enrol
        from unnest(string_to_array(${ids((p) => p.sessionId)}::text, ',')::uuid[],
                    string_to_array(${ids((p) => p.orgId)}::text, ',')::uuid[],
                    string_to_array(${ids((p) => p.userId)}::text, ',')::uuid[])
               with ordinality as w(session_id, organization_id, user_id, i)
        join sessions s on s.id = w.session_id
        join users u on u.id = s.user_id
        join organizations o on o.id = s.organization_id
        where ${liveSession(sql`w.session_id`, sql`w.organization_id`, sql`w.user_id`)}`,
  );
  const states: (DataState | null)[] = who.map(() => null);
  for (const { i, ...state } of rows) states[i - 1] = state;
  return states;
}

/** readDataStates for one principal, sharing a statement with the others asking at the same time (batch.ts). */
export function dataStateReader(db: Db): (who: Principal) => Promise<DataState | null> {
  return batched((who: Principal[]) => readDataStates(db, who));
}

/**
 * The confined transactions below are the ways into an organization's data. A request does not call them itself: it
 * goes through inRequest (platform/auth.ts), which picks the one for the principal its route admitted and records that
 * the request's session was checked. They are called directly by work outside a request (jobs, event handlers,
 * scripts, tests) and by inRequest.
 *
 * Runs fn in one transaction under the request role with app.org_id set, so row-level security confines
 * every statement to the organization even where a query forgets its own filter. Both settings are
 * transaction-local and vanish at commit, so a pooled connection never carries them to another request.
 * For a signed-in principal the same statement re-checks the session (see confine): a revoked session or a
 * deactivated user is refused here, and ctx carries the user's role as it is now.
 */
export function withTenant<T>(
  db: Db,
  who: Pick<Principal, "orgId" | "userId" | "role"> & Partial<Pick<Principal, "sessionId">>,
  fn: (ctx: Ctx) => Promise<T>,
) {
  const session = who.sessionId ? { sessionId: who.sessionId, userId: who.userId } : undefined;
  type Current = { role: Role | null; enrol: boolean | null };
  return transactionFrom<Current, T>(db, confineSql(who.orgId, session), async (tx, [current]) => {
    let role = who.role;
    let enrolmentRequired = false;
    if (session) {
      if (!current?.role) throw new AppError("UNAUTHORIZED", SESSION_ENDED);
      role = current.role;
      enrolmentRequired = current.enrol === true;
    }
    const actor: ActorRef = { kind: "staff", id: who.userId };
    const emit = busOf(db).emitter(tx, who.orgId, actor);
    return confined(() => fn({ orgId: who.orgId, userId: who.userId, role, enrolmentRequired, actor, db: tx, emit }));
  });
}

/**
 * Work that is one read, built before its transaction from who asks (the organization, and the member or key acting):
 * its statement, whether to plan it with its values each time (valuePlannedRows in db.ts), and the answer its rows
 * make. The ticket list's pages, a ticket's detail and the overview are such reads (readInRequest, platform/auth.ts).
 */
export interface OneRead<R, T> {
  statement: Statement;
  byValue: boolean;
  answer: (rows: R[]) => T;
}
/** Whom a OneRead is built for. */
export type Reader = Pick<TenantCtx, "orgId" | "actor">;

/** A OneRead in a transaction already open (a service that reads the same way after a change, a benchmark). */
export async function readIn<R, T>(db: Queryable, read: OneRead<R, T>): Promise<T> {
  return read.answer(
    await (read.byValue ? valuePlannedRows<R>(db, read.statement) : preparedRows<R>(db, read.statement)),
  );
}

/**
 * withTenant for work that is one read, in one round trip on PostgreSQL: the read goes with the transaction's BEGIN,
 * its confining statement (the session check included) and its COMMIT (confinedRead in db.ts). Its rows are turned
 * into an answer only once the session is found to count still; the member's role as it is now and whether they must
 * first set up a second factor come back beside it, for the caller to apply (inRequest's checks).
 */
export async function readAsTenant<R, T>(
  db: Db,
  who: Principal,
  read: OneRead<R, T>,
): Promise<{ rows: R[]; role: Role; enrolmentRequired: boolean }> {
  const { first, rows } = await confinedRead<{ role: Role | null; enrol: boolean | null }, R>(
    db,
    confineSql(who.orgId, { sessionId: who.sessionId, userId: who.userId }),
    read.statement,
    read.byValue,
  );
  const [current] = first;
  if (!current?.role) throw new AppError("UNAUTHORIZED", SESSION_ENDED);
  return { rows, role: current.role, enrolmentRequired: current.enrol === true };
}

/**
 * An emitter for a transaction that runs before any organization is confined (as the owner role: accepting an
 * invitation, registering), once it knows the organization.
 */
export function emitterIn(db: Db, tx: Tx, orgId: string, actor: ActorRef): Emit {
  return busOf(db).emitter(tx, orgId, actor);
}

const confineContact = sql`select set_config('app.org_id', ${sql.placeholder("org")}::text, true),
                 set_config('app.contact_id', ${sql.placeholder("contact")}::text, true),
                 set_config('role', ${CONTACT_ROLE}::text, true), set_config('jit', 'off', true),
                 exists (select 1 from contact_sessions s
                         where s.id = ${sql.placeholder("session")}::uuid and s.organization_id = ${sql.placeholder("org")}::uuid
                           and s.contact_id = ${sql.placeholder("contact")}::uuid and s.expires_at > now()) as live`;

/**
 * A contact's transaction: the organization and the contact are set for row-level security, the role is the contact
 * role, and the same statement re-checks the contact's session (gone or expired: refused).
 */
export function withContact<T>(db: Db, who: ContactPrincipal, fn: (ctx: ContactCtx) => Promise<T>) {
  const first = filled(confineContact, { org: who.orgId, contact: who.contactId, session: who.sessionId });
  return transactionFrom<{ live: boolean }, T>(db, first, async (tx, [row]) => {
    if (!row?.live) throw new AppError("UNAUTHORIZED", SESSION_ENDED);
    const actor: ActorRef = { kind: "contact", id: who.contactId };
    return confined(() =>
      fn({
        orgId: who.orgId,
        contactId: who.contactId,
        actor,
        db: tx,
        // What the contact's changes set off (notifications, automation) runs with the organization's rights.
        emit: busOf(db).emitter(tx, who.orgId, actor, 0, { as: REQUEST_ROLE, back: CONTACT_ROLE }),
      }),
    );
  });
}

const confineApiKey = sql`select set_config('app.org_id', ${sql.placeholder("org")}::text, true),
                 set_config('role', ${REQUEST_ROLE}::text, true), set_config('jit', 'off', true),
                 exists (select 1 from api_keys k
                         where k.id = ${sql.placeholder("key")}::uuid and k.organization_id = ${sql.placeholder("org")}::uuid
                           and k.revoked_at is null) as live`;

/**
 * A public API call made with one of the organization's keys: the request role and the organization's confinement,
 * the key as the actor, and the same statement checks that the key has not been revoked meanwhile.
 */
export function withApiKey<T>(db: Db, who: ApiKeyPrincipal, fn: (ctx: TenantCtx) => Promise<T>) {
  const first = filled(confineApiKey, { org: who.orgId, key: who.keyId });
  return transactionFrom<{ live: boolean }, T>(db, first, async (tx, [row]) => {
    if (!row?.live) throw new AppError("UNAUTHORIZED", KEY_REVOKED);
    const actor: ActorRef = { kind: "api_key", id: who.keyId };
    return confined(() => fn({ orgId: who.orgId, actor, db: tx, emit: busOf(db).emitter(tx, who.orgId, actor) }));
  });
}

/** withApiKey for work that is one read, in one round trip on PostgreSQL (readAsTenant); the rows only for a live key. */
export async function readWithApiKey<R, T>(db: Db, who: ApiKeyPrincipal, read: OneRead<R, T>): Promise<R[]> {
  const { first, rows } = await confinedRead<{ live: boolean }, R>(
    db,
    filled(confineApiKey, { org: who.orgId, key: who.keyId }),
    read.statement,
    read.byValue,
  );
  if (!first[0]?.live) throw new AppError("UNAUTHORIZED", KEY_REVOKED);
  return rows;
}

/**
 * Work Cove does by itself in an organization (automation, scheduled jobs, mail it receives): the request role and
 * the organization's confinement, with the system as the actor. name says what acts (e.g. "automation").
 */
export function withSystem<T>(db: Db, orgId: string, name: string, fn: (ctx: TenantCtx) => Promise<T>) {
  return confinedTransaction(db, orgId, (tx) => {
    const actor: ActorRef = { kind: "system", id: name };
    return confined(() => fn({ orgId, actor, db: tx, emit: busOf(db).emitter(tx, orgId, actor) }));
  });
}

/**
 * The same confinement for a visitor who is not signed in (the public help center): once the organization is known
 * from its public slug, its reads and writes run under the request role with app.org_id set, so row-level security
 * still applies. There is no user, so fn gets only the organization and the transaction.
 */
export function withVisitor<T>(db: Db, orgId: string, fn: (ctx: Pick<Ctx, "orgId" | "db">) => Promise<T>) {
  return confinedTransaction(db, orgId, (tx) => confined(() => fn({ orgId, db: tx })));
}
