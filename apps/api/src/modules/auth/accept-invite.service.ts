import type { AuthAnswer, acceptInviteBody, InvitationAnswer } from "@cove/contract/auth.ts";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { invitations, users } from "../../db/schema/users.ts";
import { recordAudit } from "../../platform/audit.ts";
import { hashToken } from "../../platform/auth.ts";
import { type Db, isUniqueViolation, type Queryable } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { emitterIn } from "../../platform/tenancy.ts";
import { answer, createSession, type SignInFrom } from "./auth.service.ts";
import { hashPassword } from "./passwords.ts";

/*
 * The invited person's side. It runs before they belong to any session, so like sign-in and password reset it reads as
 * the owner role and finds rows only by the hash of the link's token (docs/decisions/2026-11-21-tenancy-rls.md).
 */

export const INVITATION_INVALID =
  "This invitation link is not valid. Open the whole link from the email, or ask your administrator to invite you again.";
export const INVITATION_USED = "This invitation has already been used. Sign in with your email and password.";
export const INVITATION_EXPIRED =
  "This invitation has expired. Ask your administrator to send you a new one: it is valid for 7 days.";
/** Told only to whoever opens the link, never to the admin who invited (see inviteUser). */
export const invitationEmailTaken = (organization: string) =>
  `This email address already has a Cove account, in another organization, and an email address can belong to one team only. Sign in with your account, or ask the administrator of ${organization} to invite another email address of yours.`;

async function findInvitation(db: Queryable, token: string) {
  const [row] = await db
    .select({
      id: invitations.id,
      userId: users.id,
      expiresAt: invitations.expiresAt,
      usedAt: invitations.usedAt,
      status: users.status,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      organizationName: organizations.name,
    })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new AppError("INVALID_TOKEN", INVITATION_INVALID);
  if (row.usedAt || row.status !== "invited") throw new AppError("INVITATION_USED", INVITATION_USED);
  if (row.expiresAt <= new Date()) throw new AppError("INVITATION_EXPIRED", INVITATION_EXPIRED);
  const [account] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, row.email), ne(users.status, "invited")))
    .limit(1);
  if (account) throw new AppError("EMAIL_TAKEN", invitationEmailTaken(row.organizationName));
  return row;
}

/** What the accept page shows before anything is typed: whose team, and for whom. */
export async function lookupInvitation(db: Db, token: string): Promise<InvitationAnswer> {
  const row = await findInvitation(db, token);
  return {
    organization_name: row.organizationName,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    role: row.role,
    expires_at: row.expiresAt.toISOString(),
  };
}

/** Sets the names and password, activates the member, spends the link, and signs them in (answers like login). */
export async function acceptInvitation(
  db: Db,
  input: z.output<typeof acceptInviteBody>,
  from?: SignInFrom,
): Promise<AuthAnswer> {
  // Checked before the slow password hash, so a dead link answers at once; checked again below, where it counts.
  await findInvitation(db, input.token);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const invitation = await findInvitation(tx, input.token);
    const [spent] = await tx
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt)))
      .returning({ id: invitations.id });
    if (!spent) throw new AppError("INVITATION_USED", INVITATION_USED);
    const joined = tx
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        status: "active",
        lastLoginAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, invitation.userId), eq(users.status, "invited")))
      .returning({ id: users.id, organizationId: users.organizationId });
    // Another invitation of the same email accepted (or a registration made) a moment ago.
    const [user] = await joined.catch((err: unknown) => {
      if (isUniqueViolation(err, "users_email_unique")) {
        throw new AppError("EMAIL_TAKEN", invitationEmailTaken(invitation.organizationName));
      }
      throw err;
    });
    if (!user) throw new AppError("INVITATION_USED", INVITATION_USED);
    // Any other link sent to them (a resent invitation) is spent with this one.
    await tx
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(and(eq(invitations.userId, user.id), isNull(invitations.usedAt)));
    await emitterIn(db, tx, user.organizationId, { kind: "staff", id: user.id })("member.joined", { user_id: user.id });
    await recordAudit(tx, {
      orgId: user.organizationId,
      actor: { kind: "staff", id: user.id },
      action: "member.invitation_accepted",
      object: { type: "invitation", id: invitation.id, label: invitation.email },
    });
    return answer(tx, user.id, await createSession(tx, user, false, from));
  });
}
