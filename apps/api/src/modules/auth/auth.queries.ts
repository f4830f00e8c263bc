import type { SessionUser } from "@cove/contract/auth.ts";
import { eq, sql } from "drizzle-orm";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import type { Queryable } from "../../platform/db.ts";

/** The session user as the API answers it: the user joined with its organization, explicit columns only. */
export async function findSessionUser(db: Queryable, userId: string): Promise<SessionUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      organizationName: organizations.name,
      organizationId: organizations.id,
      organizationSlug: organizations.slug,
      avatarUrl: users.avatarUrl,
      twoFactorEnabled: sql<boolean>`exists (select 1 from two_factor t
        where t.user_id = ${users.id} and t.enabled_at is not null)`,
      twoFactorRequired: sql<boolean>`(${organizations.twoFactorPolicy} = 'everyone'
        or (${organizations.twoFactorPolicy} = 'admins' and ${users.role} = 'admin'))`,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}
