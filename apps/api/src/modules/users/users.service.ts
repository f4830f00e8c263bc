import type { EventData } from "@cove/contract/events.ts";
import type { UserListAnswer, UserListItem, updateUserBody } from "@cove/contract/users.ts";
import { and, asc, count, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { endUserSessions } from "../auth/index.ts";
import { assertSeatAvailable, lockTeam, seatUsage } from "./seats.ts";

export const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  status: users.status,
  lastLoginAt: users.lastLoginAt,
  avatarUrl: users.avatarUrl,
};

type UserRow = { [K in keyof typeof userColumns]: (typeof users.$inferSelect)[K] };

export function toUserItem(u: UserRow): UserListItem {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    role: u.role,
    status: u.status,
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
    avatar_url: u.avatarUrl,
  };
}

/** A member of the caller's organization (the route checked the id's form: platform/ids.ts); any other is not found. */
export async function findMember(ctx: Ctx, id: string): Promise<UserRow> {
  const [row] = await ctx.db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, id)));
  if (!row) throw notFound("User");
  return row;
}

/** A member as the audit log names it. */
export const memberObject = (u: Pick<UserRow, "id" | "firstName" | "lastName" | "email">) => ({
  type: "member",
  id: u.id,
  label: `${`${u.firstName} ${u.lastName}`.trim()} <${u.email}>`,
});

export async function listUsers(ctx: Ctx): Promise<UserListAnswer> {
  const rows = await ctx.db
    .select(userColumns)
    .from(users)
    .where(eq(users.organizationId, ctx.orgId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  const { trial: _trial, ...seats } = await seatUsage(ctx);
  return { users: rows.map(toUserItem), seats };
}

export const LAST_ADMIN =
  "Your organization must keep at least one active admin. Make another team member an admin first.";

/**
 * Role change, deactivation, activation (spec: PUT /users/{id}). An organization always keeps an active admin,
 * nobody deactivates themselves, and a deactivated member's sessions end at once.
 */
export async function updateUser(ctx: Ctx, id: string, input: z.output<typeof updateUserBody>): Promise<UserListItem> {
  await lockTeam(ctx);
  const target = await findMember(ctx, id);
  const role = input.role ?? target.role;
  const status = input.status ?? target.status;

  if (input.status && target.status === "invited") {
    throw new AppError(
      "CONFLICT",
      "This person has not accepted the invitation yet. Resend or revoke the invitation instead.",
    );
  }
  if (status === "inactive" && target.id === ctx.userId) {
    throw new AppError("FORBIDDEN", "You cannot deactivate your own account. Ask another admin to do it.");
  }
  const losesActiveAdmin =
    target.role === "admin" && target.status === "active" && (role !== "admin" || status !== "active");
  if (losesActiveAdmin) {
    const [others] = await ctx.db
      .select({ n: count() })
      .from(users)
      .where(
        and(
          eq(users.organizationId, ctx.orgId),
          eq(users.role, "admin"),
          eq(users.status, "active"),
          ne(users.id, target.id),
        ),
      );
    if ((others?.n ?? 0) === 0) throw new AppError("CONFLICT", LAST_ADMIN);
  }
  if (target.status === "inactive" && status === "active") await assertSeatAvailable(ctx);

  const [updated] = await ctx.db
    .update(users)
    .set({ role, status, updatedAt: new Date() })
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.id, target.id)))
    .returning(userColumns);
  if (!updated) throw notFound("User");
  if (status === "inactive" && target.status !== "inactive") {
    // Sign-in already refuses an inactive user and every request re-checks the status; this also drops the rows.
    await endUserSessions(ctx.db, ctx.orgId, target.id);
  }
  const changes: EventData<"member.changed">["changes"] = {};
  if (role !== target.role) changes.role = { from: target.role, to: role };
  if (status !== target.status) changes.status = { from: target.status, to: status };
  if (changes.role || changes.status) await ctx.emit("member.changed", { user_id: target.id, changes });
  if (changes.role) await audit(ctx, "member.role_changed", memberObject(target), changes.role);
  if (changes.status) await audit(ctx, "member.status_changed", memberObject(target), changes.status);
  return toUserItem(updated);
}

/** Withdraws a pending invitation: the invited person's row goes, and with it the link (spec: DELETE /users/{id}). */
export async function revokeInvitation(ctx: Ctx, id: string): Promise<void> {
  await lockTeam(ctx);
  const target = await findMember(ctx, id);
  if (target.status !== "invited") {
    throw new AppError(
      "CONFLICT",
      "Only a pending invitation can be revoked. To remove a member who has joined, deactivate them instead.",
    );
  }
  await ctx.db.delete(users).where(and(eq(users.organizationId, ctx.orgId), eq(users.id, target.id)));
  await ctx.emit("member.removed", { user_id: target.id });
  await audit(ctx, "member.invitation_revoked", memberObject(target));
}
