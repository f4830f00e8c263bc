import type { SessionUser } from "@cove/contract/auth.ts";
import { eq } from "drizzle-orm";
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
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}
