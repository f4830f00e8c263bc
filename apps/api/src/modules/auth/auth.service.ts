import { randomBytes } from "node:crypto";
import type {
  AuthAnswer,
  forgotPasswordBody,
  LoginChallengeAnswer,
  loginBody,
  profileBody,
  registerBody,
  resetPasswordBody,
  SessionUser,
} from "@cove/contract/auth.ts";
import {
  LOGIN_MAX_FAILURES,
  LOGIN_WINDOW_MINUTES,
  REMEMBER_ME_DAYS,
  RESET_TOKEN_MINUTES,
  SESSION_HOURS,
  TRIAL_DAYS,
  TRIAL_PLAN,
} from "@cove/contract/constants.ts";
import { isReservedOrgSlug, slugify } from "@cove/contract/slugs.ts";
import { and, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { loginFailures, passwordResetTokens, sessions } from "../../db/schema/auth.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import { recordAudit, recordAuditAlone } from "../../platform/audit.ts";
import { hashToken, newToken, type RequestTx } from "../../platform/auth.ts";
import { type Db, isUniqueViolation, type Queryable, type Tx } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { composeMail } from "../../platform/mail.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { findSessionUser } from "./auth.queries.ts";
import { checkAvatar } from "./avatar.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { createChallenge, hasSecondFactor } from "./two-factor.queries.ts";

const HOUR = 3_600_000;
const INVALID_CREDENTIALS = "Invalid email or password";
const EMAIL_TAKEN = "An account with this email already exists";
/** The email only has invitations: no account yet, so "already exists" would be wrong (and the person stuck). */
const EMAIL_INVITED =
  "This email has an invitation waiting to join a team on Cove. Open the link in the invitation email to join, or ask the person who invited you to revoke it to start a team of your own.";

/** An organization's slug, the address of its help center: the one slugify, never a reserved address. */
function organizationSlug(name: string, attempt: number): string {
  const base = slugify(name, { fallback: "org", max: 40 });
  return attempt === 0 && !isReservedOrgSlug(base) ? base : `${base}-${randomBytes(3).toString("hex")}`;
}

/** Where a sign-in comes from, kept with its session for the member's list of sessions. */
export interface SignInFrom {
  /** The client's address as the throttles count it (platform/client-address.ts). */
  ip: string;
  userAgent: string | null;
}

export async function createSession(
  db: Queryable,
  user: { id: string; organizationId: string },
  rememberMe: boolean,
  from?: SignInFrom,
) {
  const token = newToken();
  const lifetime = rememberMe ? REMEMBER_ME_DAYS * 24 * HOUR : SESSION_HOURS * HOUR;
  await db.insert(sessions).values({
    organizationId: user.organizationId,
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + lifetime),
    ip: from?.ip ?? null,
    userAgent: from?.userAgent?.slice(0, 512) ?? null,
    lastSeenAt: new Date(),
  });
  return token;
}

export async function answer(db: Queryable, userId: string, token: string): Promise<AuthAnswer> {
  const user = await findSessionUser(db, userId);
  if (!user) throw new Error("user vanished while signing in");
  return { token, user };
}

/** Creates the organization on a Growth-limits trial, its first user as admin, and a session. */
export async function register(db: Db, input: z.output<typeof registerBody>, from?: SignInFrom): Promise<AuthAnswer> {
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt++) {
    const slug = organizationSlug(input.organizationName, attempt);
    try {
      return await db.transaction(async (tx) => {
        // An account comes first: an email with one and an invitation elsewhere is simply taken.
        const [taken] = await tx
          .select({ status: users.status })
          .from(users)
          .where(eq(users.email, input.email))
          .orderBy(sql`${users.status} = 'invited'`)
          .limit(1);
        if (taken) throw new AppError("EMAIL_TAKEN", taken.status === "invited" ? EMAIL_INVITED : EMAIL_TAKEN);
        const [org] = await tx
          .insert(organizations)
          .values({
            name: input.organizationName,
            slug,
            plan: TRIAL_PLAN,
            subscriptionStatus: "trialing",
            trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 24 * HOUR),
          })
          .onConflictDoNothing({ target: organizations.slug })
          .returning({ id: organizations.id });
        if (!org) throw new SlugTaken();
        const [user] = await tx
          .insert(users)
          .values({
            organizationId: org.id,
            email: input.email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            role: "admin",
            status: "active",
            lastLoginAt: new Date(),
          })
          .returning({ id: users.id, organizationId: users.organizationId });
        if (!user) throw new Error("user insert returned nothing");
        return answer(tx, user.id, await createSession(tx, user, false, from));
      });
    } catch (err) {
      if (err instanceof SlugTaken && attempt < 5) continue;
      if (isUniqueViolation(err, "users_email_unique")) throw new AppError("EMAIL_TAKEN", EMAIL_TAKEN);
      throw err;
    }
  }
}

class SlugTaken extends Error {}

const TOO_MANY_FAILURES = `Too many failed sign-in attempts. Please wait ${LOGIN_WINDOW_MINUTES} minutes and try again, or reset your password.`;

/**
 * Reserves a sign-in attempt before its password is checked: the attempt is written (and committed) first, then the
 * attempts of the window are counted, its own included. However many arrive at once, the k-th to be written counts at
 * least k, so at most LOGIN_MAX_FAILURES of them per account and per address get their password checked. A refused
 * attempt takes its row back, so a flood of refused guesses neither counts nor grows the table. The row stays as the
 * failure when the password is wrong, and a successful sign-in clears the account's rows.
 */
export async function reserveAttempt(db: Db, email: string, ip: string): Promise<number> {
  const [attempt] = await db.insert(loginFailures).values({ email, ip }).returning({ id: loginFailures.id });
  if (!attempt) throw new Error("login attempt insert returned nothing");
  const since = new Date(Date.now() - LOGIN_WINDOW_MINUTES * 60_000);
  const [counts] = await db
    .select({
      byEmail: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})`.mapWith(Number),
      byIp: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginFailures)
    .where(and(or(eq(loginFailures.email, email), eq(loginFailures.ip, ip)), gt(loginFailures.createdAt, since)));
  if ((counts?.byEmail ?? 0) > LOGIN_MAX_FAILURES || (counts?.byIp ?? 0) > LOGIN_MAX_FAILURES) {
    await releaseAttempt(db, attempt.id);
    throw new AppError("RATE_LIMITED", TOO_MANY_FAILURES);
  }
  return attempt.id;
}

export const releaseAttempt = (db: Queryable, id: number) => db.delete(loginFailures).where(eq(loginFailures.id, id));

/** Old failures no longer count; pruning now and then keeps the table small without a scheduled job. */
export async function pruneFailures(db: Db) {
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, new Date(Date.now() - 24 * HOUR)));
}

/** A refused sign-in of a member, under the member's organization (no transaction of the sign-in holds it). */
export const auditSignIn = (
  db: Db,
  user: { id: string; organizationId: string },
  action: "auth.sign_in_failed",
  details: Record<string, unknown>,
) => recordAuditAlone(db, { orgId: user.organizationId, actor: { kind: "staff", id: user.id }, action, details });

/**
 * Sign-in with email and password. A member with a second factor gets a challenge instead of a session: the sign-in
 * ends at /api/auth/login/2fa (two-factor.service.ts). Their right password takes back its own attempt but leaves the
 * account's earlier failures counting, since the codes that follow share the throttle: only the completed sign-in
 * clears them.
 */
export async function login(
  db: Db,
  input: z.output<typeof loginBody>,
  from: SignInFrom,
): Promise<AuthAnswer | LoginChallengeAnswer> {
  const { ip } = from;
  const attempt = await reserveAttempt(db, input.email, ip);
  // Invited members of other organizations may share the email; the account that signs in is the one that joined.
  const [user] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      passwordHash: users.passwordHash,
      status: users.status,
    })
    .from(users)
    .where(and(eq(users.email, input.email), ne(users.status, "invited")))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    // A failure for an email of no member belongs to no organization: only a member's failures are audited.
    if (user) await auditSignIn(db, user, "auth.sign_in_failed", { reason: "wrong_password" });
    await pruneFailures(db);
    throw new AppError("INVALID_CREDENTIALS", INVALID_CREDENTIALS);
  }
  if (user.status !== "active") {
    // The right password is not a failed guess.
    await releaseAttempt(db, attempt);
    await auditSignIn(db, user, "auth.sign_in_failed", { reason: "deactivated" });
    throw new AppError(
      "FORBIDDEN",
      "This account has been deactivated. Ask an administrator of your team to activate it.",
    );
  }
  if (await hasSecondFactor(db, { orgId: user.organizationId, userId: user.id })) {
    await releaseAttempt(db, attempt);
    return { twoFactorRequired: true, challenge: await createChallenge(db, user, input.rememberMe) };
  }
  return completeSignIn(db, user, input.email, input.rememberMe, from);
}

/** The end of every sign-in: the account's failures cleared, its last sign-in time, and a new session. */
export function completeSignIn(
  db: Db,
  user: { id: string; organizationId: string },
  email: string,
  rememberMe: boolean,
  from: SignInFrom,
  spend?: (tx: Tx) => Promise<void>,
): Promise<AuthAnswer> {
  return db.transaction(async (tx) => {
    await spend?.(tx);
    await tx.delete(loginFailures).where(eq(loginFailures.email, email));
    await tx.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
    await recordAudit(tx, {
      orgId: user.organizationId,
      actor: { kind: "staff", id: user.id },
      action: "auth.sign_in",
    });
    return answer(tx, user.id, await createSession(tx, user, rememberMe, from));
  });
}

/** Ends every session of a member, in the caller's transaction (a member deactivated by an admin is signed out). */
export async function endUserSessions(db: Queryable, orgId: string, userId: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.organizationId, orgId), eq(sessions.userId, userId)));
}

export async function logout(ctx: Ctx, sessionId: string): Promise<void> {
  await ctx.db.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.organizationId, ctx.orgId)));
}

export async function me(ctx: Ctx): Promise<SessionUser> {
  const user = await findSessionUser(ctx.db, ctx.userId);
  if (!user) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return user;
}

export const WRONG_CURRENT_PASSWORD = "Your current password is not correct";

/**
 * Names, picture and password of the signed-in user. A new password needs the current one and ends every other
 * session of the user (this one stays). Passwords are hashed and checked outside any transaction: argon2 takes tens of
 * milliseconds, and on the embedded database an open transaction holds the only connection.
 */
export async function updateProfile(
  tx: RequestTx<Ctx>,
  sessionId: string,
  input: z.output<typeof profileBody>,
): Promise<SessionUser> {
  const avatarUrl = input.avatarUrl ? checkAvatar(input.avatarUrl) : input.avatarUrl;
  let password: { current: string; next: string } | undefined;
  if (input.newPassword !== undefined) {
    const [stored] = await tx((ctx) =>
      ctx.db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId))),
    );
    if (!stored?.passwordHash || !(await verifyPassword(stored.passwordHash, input.currentPassword ?? ""))) {
      throw new AppError("BAD_REQUEST", WRONG_CURRENT_PASSWORD, [
        { path: "currentPassword", message: WRONG_CURRENT_PASSWORD },
      ]);
    }
    password = { current: stored.passwordHash, next: await hashPassword(input.newPassword) };
  }
  return tx(async (ctx) => {
    const mine = and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId));
    const [before] = await ctx.db.select({ first: users.firstName, last: users.lastName }).from(users).where(mine);
    const [changed] = await ctx.db
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        avatarUrl,
        passwordHash: password?.next,
        updatedAt: new Date(),
      })
      // The password checked above must still be the stored one (not changed meanwhile in another tab).
      .where(password ? and(mine, eq(users.passwordHash, password.current)) : mine)
      .returning({ id: users.id });
    if (!changed) {
      throw new AppError("CONFLICT", "Your password was changed meanwhile. Reload the page and try again.");
    }
    const name = (first: string, last: string) => `${first} ${last}`.trim();
    const wasNamed = before ? name(before.first, before.last) : "";
    const isNamed = name(input.firstName ?? before?.first ?? "", input.lastName ?? before?.last ?? "");
    if (before && isNamed !== wasNamed) {
      await ctx.emit("member.changed", { user_id: ctx.userId, changes: { name: { from: wasNamed, to: isNamed } } });
    }
    if (password) {
      await ctx.db
        .delete(sessions)
        .where(
          and(eq(sessions.userId, ctx.userId), eq(sessions.organizationId, ctx.orgId), ne(sessions.id, sessionId)),
        );
    }
    return me(ctx);
  });
}

export const FORGOT_PASSWORD_MESSAGE =
  "If an account exists for that email, we have sent a link to reset your password. The link is valid for 1 hour.";

/** A password reset asked for: the lookup, the token and the email are the job's work, not the request's. */
export const PASSWORD_RESET_QUEUE: JobQueue<{ email: string }> = {
  name: "password-reset",
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 60,
};

/**
 * The request's part of a password reset: one job enqueued, whether or not the email has an account, so the answer
 * takes the same work (and so the same time) for a known and an unknown address. See sendPasswordReset.
 */
export async function forgotPassword(db: Db, jobs: Jobs, input: z.output<typeof forgotPasswordBody>): Promise<void> {
  await jobs.send(db, PASSWORD_RESET_QUEUE, { email: input.email });
}

/** The job's part: for an active account, a single-use token and its email, written together; else nothing. */
export async function sendPasswordReset(db: Db, mail: { jobs: Jobs; publicUrl: string }, email: string): Promise<void> {
  const [user] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      firstName: users.firstName,
      organizationName: organizations.name,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.email, email), eq(users.status, "active")))
    .limit(1);
  if (!user) return;
  const token = newToken();
  const message = composeMail({
    to: email,
    subject: "Reset your Cove password",
    intro: [
      `Hi ${user.firstName},`,
      `Someone asked to reset the password of your Cove account at ${oneLine(user.organizationName)}. To choose a new password, open this link:`,
    ],
    action: { label: "Choose a new password", url: `${mail.publicUrl}/reset-password?token=${token}` },
    outro: [
      `The link works once and expires in ${RESET_TOKEN_MINUTES} minutes. If you did not ask for this, ignore this email: your password stays as it is.`,
    ],
  });
  // The token and its email are written together: the mail goes out from the job queue once this commits.
  await db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      organizationId: user.organizationId,
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000),
    });
    await mail.jobs.sendMail(tx, message);
  });
}

/** Names go into subjects and sentences: line breaks typed into them must not break the message's layout. */
export const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export const INVALID_RESET_TOKEN = "This password reset link is invalid or has expired. Please request a new one.";

/** Answers whether a reset link still works (unused, unexpired, its member active) without spending it. */
export async function checkResetToken(db: Db, token: string): Promise<void> {
  const [valid] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .innerJoin(users, and(eq(users.id, passwordResetTokens.userId), eq(users.status, "active")))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!valid) throw new AppError("INVALID_TOKEN", INVALID_RESET_TOKEN);
}

/** Sets the new password, spends the token, and ends every session of the user. */
export async function resetPassword(db: Db, input: z.output<typeof resetPasswordBody>): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) throw new AppError("INVALID_TOKEN", INVALID_RESET_TOKEN);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, spent.userId), eq(users.status, "active")))
      .returning({ id: users.id, email: users.email });
    if (!user) throw new AppError("INVALID_TOKEN", INVALID_RESET_TOKEN);
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await tx.delete(loginFailures).where(eq(loginFailures.email, user.email));
  });
}
