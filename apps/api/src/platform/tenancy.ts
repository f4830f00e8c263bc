import type { Role } from "@cove/contract/constants.ts";
import type { Db, Tx } from "./db.ts";

/** Who is acting, resolved once per request. */
export interface Principal {
  orgId: string;
  userId: string;
  role: Role;
  sessionId: string;
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

/**
 * Confines a transaction to an organization. The statement is sent as plain text through the driver (one simple-protocol
 * message, no parse, bind or plan) because every request pays for it; the organization id is checked to be a UUID,
 * so it is a literal that cannot be anything else. JIT compiling is off too: it pays off for long analytical queries,
 * never for a request's short ones, where it can add tens of milliseconds to a plan that crosses its cost threshold.
 */
async function confine(tx: Tx, orgId: string): Promise<void> {
  if (!UUID.test(orgId)) throw new Error("organization id is not a UUID");
  const text = `select set_config('app.org_id', '${orgId}', true), set_config('role', '${REQUEST_ROLE}', true), set_config('jit', 'off', true)`;
  const { client } = (tx as unknown as DriverHandle).session;
  await (client.exec ? client.exec(text) : client.query(text));
}

/**
 * Runs fn in one transaction under the request role with app.org_id set, so row-level security confines
 * every statement to the organization even where a query forgets its own filter. Both settings are
 * transaction-local and vanish at commit, so a pooled connection never carries them to another request.
 */
export function withTenant<T>(db: Db, who: Pick<Principal, "orgId" | "userId" | "role">, fn: (ctx: Ctx) => Promise<T>) {
  return db.transaction(async (tx) => {
    await confine(tx, who.orgId);
    return fn({ orgId: who.orgId, userId: who.userId, role: who.role, db: tx });
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
