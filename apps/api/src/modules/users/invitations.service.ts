import { INVITATION_DAYS } from "@cove/contract/constants.ts";
import type { inviteUserBody, UserListItem } from "@cove/contract/users.ts";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { z } from "zod";
import { organizations } from "../../db/schema/organizations.ts";
import { invitations, users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { hashToken, newToken } from "../../platform/auth.ts";
import { type Db, isUniqueViolation } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { composeMail } from "../../platform/mail.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { assertSeatAvailable, lockTeam } from "./seats.ts";
import { findMember, memberObject, toUserItem, userColumns } from "./users.service.ts";

/** What sending an invitation needs besides the request: the queue and the base of the link. */
export interface InvitationMail {
  jobs: Jobs;
  publicUrl: string;
}

const EMAIL_TAKEN = "An account with this email already exists";
export const EMAIL_IN_ANOTHER_TEAM =
  "This email address already has a Cove account in another organization, and an address can belong to one team only. Invite another email address of theirs.";
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Invitations one organization may have refused per hour for an address with an account elsewhere. */
export const ELSEWHERE_REFUSALS_PER_HOUR = 5;
const refusals = new Map<string, number[]>();

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Creates a fresh single-use link for an invited member and queues its email, in the caller's transaction. */
async function sendInvitation(
  ctx: Ctx,
  invitee: { id: string; email: string; firstName: string },
  mail: InvitationMail,
) {
  const [context] = await ctx.db
    .select({ organization: organizations.name, firstName: users.firstName, lastName: users.lastName })
    .from(organizations)
    .innerJoin(users, and(eq(users.organizationId, organizations.id), eq(users.id, ctx.userId)))
    .where(eq(organizations.id, ctx.orgId));
  if (!context) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  const token = newToken();
  await ctx.db.insert(invitations).values({
    organizationId: ctx.orgId,
    userId: invitee.id,
    invitedBy: ctx.userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + INVITATION_DAYS * DAY),
  });
  const organization = oneLine(context.organization);
  const inviter = oneLine(`${context.firstName} ${context.lastName}`);
  await mail.jobs.sendMail(
    ctx.db,
    composeMail({
      to: invitee.email,
      subject: `You're invited to join ${organization} on Cove`,
      intro: [
        `Hi ${oneLine(invitee.firstName)},`,
        `${inviter} has invited you to join the ${organization} team on Cove, where the team answers its customers' tickets and chats.`,
        "To accept, open this link, choose your password, and you are in:",
      ],
      action: { label: "Accept the invitation", url: `${mail.publicUrl}/accept-invite?token=${token}` },
      outro: [
        `The link works once and expires in ${INVITATION_DAYS} days. If you were not expecting this invitation, you can ignore this email.`,
      ],
    }),
  );
}

/**
 * Refuses at once (409) to invite an email that already has an account in another organization: such an invitation
 * could never be accepted and would hold a seat. Runs as the owner role, before the tenant transaction, and looks only
 * at members who joined. Since it says whether an address has a Cove account, one organization may be told so
 * ELSEWHERE_REFUSALS_PER_HOUR times an hour, then its invitations wait (429), like registration's 409
 * (docs/decisions/2026-11-25-abuse-resistance.md).
 */
export async function refuseAccountElsewhere(db: Db, orgId: string, email: string, now = Date.now()): Promise<void> {
  const recent = (refusals.get(orgId) ?? []).filter((at) => at > now - HOUR);
  if (recent.length >= ELSEWHERE_REFUSALS_PER_HOUR) {
    const minutes = Math.max(1, Math.ceil(((recent[0] ?? now) + HOUR - now) / 60_000));
    throw new AppError(
      "RATE_LIMITED",
      `Too many invitations to addresses that already have an account. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
  const [account] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.status, "invited"), ne(users.organizationId, orgId)))
    .limit(1);
  if (recent.length > 0) refusals.set(orgId, recent);
  else refusals.delete(orgId);
  if (!account) return;
  refusals.set(orgId, [...recent, now]);
  throw new AppError("EMAIL_TAKEN", EMAIL_IN_ANOTHER_TEAM);
}

/**
 * Invites someone (spec: POST /users/invite): they become a member with status invited, holding a seat, and get an
 * email with a single-use link valid for 7 days. The route first refuses an email with an account in another
 * organization (refuseAccountElsewhere); one already in this organization is refused here with 409.
 */
export async function inviteUser(
  ctx: Ctx,
  input: z.output<typeof inviteUserBody>,
  mail: InvitationMail,
): Promise<UserListItem> {
  await lockTeam(ctx);
  await assertSeatAvailable(ctx);
  // This organization's members only (row-level security would confine it too; the query rule names it anyway).
  const [mine] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.email, input.email)))
    .limit(1);
  if (mine) throw new AppError("EMAIL_TAKEN", EMAIL_TAKEN);
  let created: Parameters<typeof toUserItem>[0] | undefined;
  try {
    [created] = await ctx.db
      .insert(users)
      .values({
        organizationId: ctx.orgId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        role: input.role,
        status: "invited",
      })
      .returning(userColumns);
  } catch (err) {
    // The same email invited in this organization by a concurrent request (team changes queue on lockTeam, so only a
    // change made outside it gets here).
    if (isUniqueViolation(err, "users_email_org_unique")) throw new AppError("EMAIL_TAKEN", EMAIL_TAKEN);
    throw err;
  }
  if (!created) throw new Error("user insert returned nothing");
  await sendInvitation(ctx, created, mail);
  await ctx.emit("member.invited", { user_id: created.id });
  await audit(ctx, "member.invited", memberObject(created), { role: created.role });
  return toUserItem(created);
}

/** Sends a new link to someone who has not accepted yet; the links sent before stop working. */
export async function resendInvitation(ctx: Ctx, id: string, mail: InvitationMail): Promise<UserListItem> {
  await lockTeam(ctx);
  const target = await findMember(ctx, id);
  if (target.status !== "invited") {
    throw new AppError("CONFLICT", "This person has already accepted the invitation: there is nothing to resend.");
  }
  await ctx.db
    .update(invitations)
    .set({ expiresAt: new Date() })
    .where(
      and(
        eq(invitations.organizationId, ctx.orgId),
        eq(invitations.userId, target.id),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    );
  await sendInvitation(ctx, target, mail);
  await audit(ctx, "member.invitation_resent", memberObject(target));
  return toUserItem(target);
}
