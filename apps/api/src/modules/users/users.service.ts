import type { UserListItem } from "@cove/contract/users.ts";
import { asc, eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import type { Ctx } from "../../platform/tenancy.ts";

export async function listUsers(ctx: Ctx): Promise<UserListItem[]> {
  const rows = await ctx.db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      status: users.status,
      lastLoginAt: users.lastLoginAt,
      avatarUrl: users.avatarUrl,
    })
    .from(users)
    .where(eq(users.organizationId, ctx.orgId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows.map((u) => ({
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    role: u.role,
    status: u.status,
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
    avatar_url: u.avatarUrl,
  }));
}
