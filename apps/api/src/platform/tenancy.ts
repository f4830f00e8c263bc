import type { Role } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
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

/**
 * Runs fn in one transaction under the request role with app.org_id set, so row-level security confines
 * every statement to the organization even where a query forgets its own filter. Both settings are
 * transaction-local and vanish at commit, so a pooled connection never carries them to another request.
 */
export function withTenant<T>(db: Db, who: Pick<Principal, "orgId" | "userId" | "role">, fn: (ctx: Ctx) => Promise<T>) {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('app.org_id', ${who.orgId}, true), set_config('role', ${REQUEST_ROLE}, true)`,
    );
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
    await tx.execute(sql`select set_config('app.org_id', ${orgId}, true), set_config('role', ${REQUEST_ROLE}, true)`);
    return fn({ orgId, db: tx });
  });
}
