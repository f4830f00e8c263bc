import type { Role } from "@cove/contract/constants.ts";
import type { Db, Tx } from "./db.ts";
import { AppError } from "./errors.ts";

export const SESSION_ENDED = "Your session has ended. Please sign in again.";

/** Who is acting, resolved once per request. */
export interface Principal {
  orgId: string;
  userId: string;
  role: Role;
  sessionId: string;
  /**
   * The session was read from the database during this request: by the lookup that resolved it, or by a tenant
   * transaction's check (confine). A principal from the session cache starts unverified.
   */
  verified: boolean;
}

/** What every tenant service receives: the principal and a transaction confined to its organization. */
export interface Ctx {
  orgId: string;
  userId: string;
  role: Role;
  db: Tx;
}

/** The non-superuser role whose row-level security policies confine every query to app.org_id. */
export const REQUEST_ROLE = "cove_app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The driver's own handle under a Drizzle transaction: PGlite's transaction or node-postgres' pooled client. */
interface DriverHandle {
  session: { client: { exec?: (text: string) => Promise<unknown>; query: (text: string) => Promise<unknown> } };
}

/** Answers of the two drivers to a plain-text statement: node-postgres one result, PGlite's exec one per statement. */
type TextResult = { rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[];

/**
 * Confines a transaction to an organization and, for a signed-in caller, checks in the same statement that the
 * session is still valid: it exists, has not expired, and its user is active. It answers the user's role as it is
 * now (null: the session no longer counts). The statement is sent as plain text through the driver (one
 * simple-protocol message: no parse, bind or plan) because every request pays for it; the ids are checked to be UUIDs,
 * so they are literals that cannot be anything else. The check runs as the connecting role: the session's subquery is
 * planned before set_config switches to the request role. JIT compiling is off: it pays off for long analytical
 * queries, never for a request's short ones, where it can add tens of milliseconds to a plan that crosses its cost
 * threshold.
 */
async function confine(tx: Tx, orgId: string, session?: { sessionId: string; userId: string }): Promise<Role | null> {
  for (const id of [orgId, session?.sessionId, session?.userId]) {
    if (id !== undefined && !UUID.test(id)) throw new Error("an id of the tenant context is not a UUID");
  }
  const check = session
    ? `, (select u.role from sessions s join users u on u.id = s.user_id
          where s.id = '${session.sessionId}' and s.organization_id = '${orgId}' and u.id = '${session.userId}'
            and s.expires_at > now() and u.status = 'active') as role`
    : "";
  const text = `select set_config('app.org_id', '${orgId}', true), set_config('role', '${REQUEST_ROLE}', true), set_config('jit', 'off', true)${check}`;
  const { client } = (tx as unknown as DriverHandle).session;
  const result = (await (client.exec ? client.exec(text) : client.query(text))) as TextResult;
  const rows = Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows;
  return (rows[0]?.role as Role | null | undefined) ?? null;
}

/**
 * Runs fn in one transaction under the request role with app.org_id set, so row-level security confines
 * every statement to the organization even where a query forgets its own filter. Both settings are
 * transaction-local and vanish at commit, so a pooled connection never carries them to another request.
 * For a signed-in principal the same statement re-checks the session (see confine): a revoked session or a
 * deactivated user is refused here, and ctx carries the user's role as it is now.
 */
export function withTenant<T>(
  db: Db,
  who: Pick<Principal, "orgId" | "userId" | "role"> & Partial<Pick<Principal, "sessionId" | "verified">>,
  fn: (ctx: Ctx) => Promise<T>,
) {
  return db.transaction(async (tx) => {
    let role = who.role;
    if (who.sessionId) {
      const current = await confine(tx, who.orgId, { sessionId: who.sessionId, userId: who.userId });
      if (!current) throw new AppError("UNAUTHORIZED", SESSION_ENDED);
      role = current;
      who.verified = true;
    } else {
      await confine(tx, who.orgId);
    }
    return fn({ orgId: who.orgId, userId: who.userId, role, db: tx });
  });
}

/**
 * The same confinement for a visitor who is not signed in (the public help center): once the organization is known
 * from its public slug, its reads and writes run under the request role with app.org_id set, so row-level security
 * still applies. There is no user, so fn gets only the organization and the transaction.
 */
export function withVisitor<T>(db: Db, orgId: string, fn: (ctx: Pick<Ctx, "orgId" | "db">) => Promise<T>) {
  return db.transaction(async (tx) => {
    await confine(tx, orgId);
    return fn({ orgId, db: tx });
  });
}
