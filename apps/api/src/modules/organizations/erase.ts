import { sql } from "drizzle-orm";
import { forgetDataVersions } from "../../platform/answer-cache.ts";
import type { Db } from "../../platform/db.ts";

/**
 * Deletes an organization and everything it owns: every tenant table references organizations with ON DELETE CASCADE.
 * data_versions has no foreign key (its triggers fire while the rows cascade away): the platform drops its rows. This
 * runs as the owner role: on the admin's request (Settings) or 90 days after a subscription ended (billing lifecycle).
 */
export async function eraseOrganization(db: Db, orgId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from organizations where id = ${orgId}`);
    await forgetDataVersions(tx, orgId);
  });
}
