import { eq } from "drizzle-orm";
import { organizations } from "../../db/schema/organizations.ts";
import type { Db } from "../../platform/db.ts";

export interface DemoOrganization {
  id: string;
  name: string;
  slug: string;
}

/**
 * The demo organization: the one the seed flagged (organizations.is_demo), never one found by its slug or name, which
 * a registration could take. It runs before any organization is known (as sign-in does), so it reads as the owner role
 * and returns only that one organization's id, name and slug.
 */
export async function findDemoOrganization(db: Db): Promise<DemoOrganization | null> {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.isDemo, true))
    .limit(1);
  return row ?? null;
}
