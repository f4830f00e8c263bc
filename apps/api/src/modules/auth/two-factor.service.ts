import type { AuthAnswer } from "@cove/contract/auth.ts";
import { RECOVERY_CODE_COUNT } from "@cove/contract/constants.ts";
import type {
  loginTwoFactorBody,
  RecoveryCodesAnswer,
  SecuritySettings,
  TwoFactorSetupAnswer,
  TwoFactorStatus,
  updateSecurityBody,
} from "@cove/contract/security.ts";
import { and, count, eq, gt, isNull } from "drizzle-orm";
import type { z } from "zod";
import { twoFactor, twoFactorChallenges, twoFactorRecoveryCodes } from "../../db/schema/auth.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { hashToken, type RequestTx } from "../../platform/auth.ts";
import type { Db, Queryable, Tx } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { composeMail } from "../../platform/mail.ts";
import type { Secrets } from "../../platform/secrets.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import {
  auditSignIn,
  completeSignIn,
  oneLine,
  pruneFailures,
  releaseAttempt,
  reserveAttempt,
  type SignInFrom,
} from "./auth.service.ts";
import { matchTotp, newRecoveryCode, newTotpSecret, otpauthUrl, qrCodeDataUrl, recoveryCodeHash } from "./totp.ts";
import { hasSecondFactor, spendRecoveryCode, takeTimeStep } from "./two-factor.queries.ts";

/**
 * Two-factor sign-in (TOTP, RFC 6238) and the organization's policy of who must use it. These are the actions the
 * audit log records (set-up confirmed, turned off, new recovery codes, an admin's reset, the policy changed): each is
 * one exported function. docs/decisions/2026-11-29-two-factor-and-sessions.md.
 */

/** What the service needs besides the database: the key that seals secrets, and for the reset email the mail queue. */
export interface TwoFactorDeps {
  secrets: Secrets;
  jobs: Jobs;
  publicUrl: string;
}

export const WRONG_CODE = "That code is not correct. Check the code in your authenticator app and try again.";
export const WRONG_RECOVERY_CODE = "That recovery code is not correct, or it has already been used.";
export const CHALLENGE_EXPIRED = "This sign-in has expired. Please enter your email and password again.";
const NOT_SET_UP = "Two-factor sign-in is not turned on for your account.";

/** The secret is sealed bound to its member: a sealed value copied to another member's row does not open. */
const sealedFor = (userId: string) => `two-factor:${userId}`;

const wrongCode = () => new AppError("BAD_REQUEST", WRONG_CODE, [{ path: "code", message: WRONG_CODE }]);

/** The organization's policy applies to this member. */
const policyApplies = (policy: string, role: string) =>
  policy === "everyone" || (policy === "admins" && role === "admin");

async function memberOf(ctx: Ctx) {
  const [me] = await ctx.db
    .select({ email: users.email, role: users.role, policy: organizations.twoFactorPolicy })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId)));
  if (!me) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return me;
}

/** A member of an organization, by both ids: every statement on their factor names both (CODE_STYLE.md, "Queries"). */
interface Member {
  orgId: string;
  userId: string;
}
const factorRow = (who: Member) => and(eq(twoFactor.organizationId, who.orgId), eq(twoFactor.userId, who.userId));
const codesOf = (who: Member) =>
  and(eq(twoFactorRecoveryCodes.organizationId, who.orgId), eq(twoFactorRecoveryCodes.userId, who.userId));

async function factorOf(db: Queryable, who: Member) {
  const [row] = await db
    .select({
      secretSealed: twoFactor.secretSealed,
      enabledAt: twoFactor.enabledAt,
      lastUsedStep: twoFactor.lastUsedStep,
    })
    .from(twoFactor)
    .where(factorRow(who));
  return row;
}

export async function twoFactorStatus(ctx: Ctx): Promise<TwoFactorStatus> {
  const me = await memberOf(ctx);
  const factor = await factorOf(ctx.db, ctx);
  const [left] = await ctx.db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(codesOf(ctx), isNull(twoFactorRecoveryCodes.usedAt)));
  return {
    enabled: Boolean(factor?.enabledAt),
    required: policyApplies(me.policy, me.role),
    recoveryCodesLeft: factor?.enabledAt ? (left?.n ?? 0) : 0,
  };
}

/** Starts set-up: a new secret, waiting for its first code (a set-up started before and never confirmed is replaced). */
export async function setupTwoFactor(ctx: Ctx, secrets: Secrets): Promise<TwoFactorSetupAnswer> {
  const me = await memberOf(ctx);
  const current = await factorOf(ctx.db, ctx);
  if (current?.enabledAt) {
    throw new AppError("CONFLICT", "Two-factor sign-in is already on. Turn it off first to set it up again.");
  }
  const secret = newTotpSecret();
  const values = { secretSealed: secrets.seal(secret, sealedFor(ctx.userId)), enabledAt: null, lastUsedStep: null };
  await ctx.db
    .insert(twoFactor)
    .values({ userId: ctx.userId, organizationId: ctx.orgId, ...values })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { ...values, updatedAt: new Date() } });
  const url = otpauthUrl(secret, me.email);
  return { secret, otpauthUrl: url, qrCode: await qrCodeDataUrl(url) };
}

/**
 * Checks a current code of the member's own factor (set up or on, as `state` says) and takes its time step, so the
 * same code is not accepted again. Wrong codes share the sign-in throttle: the attempt is reserved (and counted) first.
 */
async function withCurrentCode<T>(
  db: Db,
  tx: RequestTx<Ctx>,
  deps: TwoFactorDeps,
  input: { code: string; ip: string; state: "pending" | "enabled" },
  fn: (ctx: Ctx, step: number) => Promise<T>,
): Promise<T> {
  const { userId, email, factor } = await tx(async (ctx) => ({
    userId: ctx.userId,
    email: (await memberOf(ctx)).email,
    factor: await factorOf(ctx.db, ctx),
  }));
  if (!factor || (input.state === "enabled") !== Boolean(factor.enabledAt)) {
    throw new AppError(
      "CONFLICT",
      input.state === "enabled" ? NOT_SET_UP : "Start the set-up again: it is already on, or was never started.",
    );
  }
  const attempt = await reserveAttempt(db, email, input.ip);
  const step = await matchTotp(
    deps.secrets.open(factor.secretSealed, sealedFor(userId)),
    input.code,
    factor.lastUsedStep,
  );
  if (step === null) {
    await pruneFailures(db);
    throw wrongCode();
  }
  const result = await tx(async (ctx) => {
    // The same conditional update as at sign-in: a code raced in twice is taken once.
    const [taken] = await ctx.db
      .update(twoFactor)
      .set({ lastUsedStep: step, updatedAt: new Date() })
      .where(
        and(
          factorRow(ctx),
          eq(twoFactor.secretSealed, factor.secretSealed),
          factor.lastUsedStep === null
            ? isNull(twoFactor.lastUsedStep)
            : eq(twoFactor.lastUsedStep, factor.lastUsedStep),
        ),
      )
      .returning({ userId: twoFactor.userId });
    if (!taken) throw wrongCode();
    return fn(ctx, step);
  });
  // A right code is not a failed guess.
  await releaseAttempt(db, attempt);
  return result;
}

async function replaceRecoveryCodes(ctx: Ctx): Promise<string[]> {
  await ctx.db.delete(twoFactorRecoveryCodes).where(codesOf(ctx));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.insert(twoFactorRecoveryCodes).values(
    codes.map((code) => ({
      organizationId: ctx.orgId,
      userId: ctx.userId,
      codeHash: recoveryCodeHash(ctx.userId, code),
    })),
  );
  return codes;
}

/** Confirms set-up with a first code: two-factor sign-in is on, and the member gets recovery codes (shown once). */
export function enableTwoFactor(
  db: Db,
  tx: RequestTx<Ctx>,
  deps: TwoFactorDeps,
  input: { code: string; ip: string },
): Promise<RecoveryCodesAnswer> {
  return withCurrentCode(db, tx, deps, { ...input, state: "pending" }, async (ctx) => {
    await ctx.db.update(twoFactor).set({ enabledAt: new Date(), updatedAt: new Date() }).where(factorRow(ctx));
    const recoveryCodes = await replaceRecoveryCodes(ctx);
    await audit(ctx, "two_factor.enabled", { type: "member", id: ctx.userId, label: null });
    return { recoveryCodes };
  });
}

/** New recovery codes for a current code: the old ones stop working. */
export function regenerateRecoveryCodes(
  db: Db,
  tx: RequestTx<Ctx>,
  deps: TwoFactorDeps,
  input: { code: string; ip: string },
): Promise<RecoveryCodesAnswer> {
  return withCurrentCode(db, tx, deps, { ...input, state: "enabled" }, async (ctx) => {
    const recoveryCodes = await replaceRecoveryCodes(ctx);
    await audit(ctx, "two_factor.recovery_codes_regenerated", { type: "member", id: ctx.userId, label: null });
    return { recoveryCodes };
  });
}

/** Turns two-factor sign-in off with a current code, unless the organization requires it of the member. */
export async function disableTwoFactor(
  db: Db,
  tx: RequestTx<Ctx>,
  deps: TwoFactorDeps,
  input: { code: string; ip: string },
): Promise<void> {
  const me = await tx(memberOf);
  if (policyApplies(me.policy, me.role)) {
    throw new AppError(
      "FORBIDDEN",
      "Your organization requires two-factor sign-in, so it cannot be turned off. An administrator can reset it if you lost your device.",
    );
  }
  await withCurrentCode(db, tx, deps, { ...input, state: "enabled" }, async (ctx) => {
    await ctx.db.delete(twoFactorRecoveryCodes).where(codesOf(ctx));
    await ctx.db.delete(twoFactor).where(factorRow(ctx));
    await audit(ctx, "two_factor.disabled", { type: "member", id: ctx.userId, label: null });
  });
}

/**
 * The second step of a sign-in: a current code or an unused recovery code, for a challenge that is unexpired and
 * unspent. Wrong codes count against the account like wrong passwords (reserved first: at most LOGIN_MAX_FAILURES
 * are ever checked in a window, however many arrive at once). The challenge, the code's time step or recovery code,
 * and the new session are written in one transaction, so a sign-in either completes with all three or spends none.
 */
export async function loginWithSecondFactor(
  db: Db,
  secrets: Secrets,
  input: z.output<typeof loginTwoFactorBody>,
  from: SignInFrom,
): Promise<AuthAnswer> {
  const tokenHash = hashToken(input.challenge);
  const [challenge] = await db
    .select({
      id: twoFactorChallenges.id,
      userId: twoFactorChallenges.userId,
      organizationId: twoFactorChallenges.organizationId,
      rememberMe: twoFactorChallenges.rememberMe,
      email: users.email,
      status: users.status,
    })
    .from(twoFactorChallenges)
    .innerJoin(users, eq(users.id, twoFactorChallenges.userId))
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, new Date()),
      ),
    );
  if (challenge?.status !== "active") throw new AppError("INVALID_TOKEN", CHALLENGE_EXPIRED);
  const user = { id: challenge.userId, organizationId: challenge.organizationId };
  const member = { orgId: user.organizationId, userId: user.id };
  await reserveAttempt(db, challenge.email, from.ip);

  let spendCode: (tx: Tx) => Promise<boolean>;
  if (input.code !== undefined) {
    const factor = await factorOf(db, member);
    const step = factor?.enabledAt
      ? await matchTotp(secrets.open(factor.secretSealed, sealedFor(user.id)), input.code, factor.lastUsedStep)
      : null;
    if (step === null) {
      await auditSignIn(db, user, "auth.sign_in_failed", { reason: "wrong_code" });
      await pruneFailures(db);
      throw new AppError("INVALID_CREDENTIALS", WRONG_CODE);
    }
    spendCode = (tx) => takeTimeStep(tx, user.id, step);
  } else {
    const codeHash = recoveryCodeHash(user.id, input.recoveryCode ?? "");
    spendCode = async (tx) => (await hasSecondFactor(tx, member)) && spendRecoveryCode(tx, user.id, codeHash);
  }
  const wrong = input.code !== undefined ? WRONG_CODE : WRONG_RECOVERY_CODE;
  try {
    return await completeSignIn(db, user, challenge.email, challenge.rememberMe, from, async (tx) => {
      const [spent] = await tx
        .update(twoFactorChallenges)
        .set({ usedAt: new Date() })
        .where(and(eq(twoFactorChallenges.id, challenge.id), isNull(twoFactorChallenges.usedAt)))
        .returning({ id: twoFactorChallenges.id });
      if (!spent) throw new AppError("INVALID_TOKEN", CHALLENGE_EXPIRED);
      if (!(await spendCode(tx))) throw new AppError("INVALID_CREDENTIALS", wrong);
    });
  } catch (err) {
    if (err instanceof AppError && err.code === "INVALID_CREDENTIALS") {
      const reason = input.code !== undefined ? "wrong_code" : "wrong_recovery_code";
      await auditSignIn(db, user, "auth.sign_in_failed", { reason });
      await pruneFailures(db);
    }
    throw err;
  }
}

/**
 * An admin turns a member's second factor off (they lost their phone and their recovery codes); the member is told
 * by email. If the organization requires it of them, their next request takes them to set it up again.
 */
export async function resetMemberTwoFactor(
  ctx: Ctx,
  deps: Pick<TwoFactorDeps, "jobs" | "publicUrl">,
  memberId: string,
) {
  const [member] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      status: users.status,
      organizationName: organizations.name,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, memberId), eq(users.organizationId, ctx.orgId)));
  if (!member || member.status === "invited") throw notFound("User");
  const removed = await ctx.db
    .delete(twoFactor)
    .where(and(eq(twoFactor.userId, member.id), eq(twoFactor.organizationId, ctx.orgId)))
    .returning({ enabledAt: twoFactor.enabledAt });
  if (!removed.some((r) => r.enabledAt)) {
    throw new AppError("CONFLICT", "This member has not turned on two-factor sign-in, so there is nothing to reset.");
  }
  await ctx.db
    .delete(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, member.id), eq(twoFactorRecoveryCodes.organizationId, ctx.orgId)));
  await audit(ctx, "two_factor.reset", { type: "member", id: member.id, label: member.email });
  const [admin] = await ctx.db
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId)));
  const adminName = oneLine(`${admin?.first ?? ""} ${admin?.last ?? ""}`) || "An administrator";
  await deps.jobs.sendMail(
    ctx.db,
    composeMail({
      to: member.email,
      subject: "Two-factor sign-in was reset on your Cove account",
      intro: [
        `Hi ${oneLine(member.firstName)},`,
        `${adminName}, an administrator of ${oneLine(member.organizationName)} on Cove, has reset two-factor sign-in on your account. Your authenticator app's codes and your recovery codes no longer work.`,
      ],
      action: { label: "Sign in and set it up again", url: `${deps.publicUrl}/profile` },
      outro: ["If you did not ask for this, tell your administrator at once and change your password."],
    }),
  );
}

export async function getSecuritySettings(ctx: Ctx): Promise<SecuritySettings> {
  const [org] = await ctx.db
    .select({ twoFactorPolicy: organizations.twoFactorPolicy })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (!org) throw notFound("Organization");
  return org;
}

/**
 * Who must sign in with a second factor. An admin who requires it of admins has it on first, so they never lock
 * themselves into enrolment by saving the setting.
 */
export async function updateSecuritySettings(
  ctx: Ctx,
  input: z.output<typeof updateSecurityBody>,
): Promise<SecuritySettings> {
  if (input.twoFactorPolicy !== "off" && !(await hasSecondFactor(ctx.db, ctx))) {
    throw new AppError(
      "CONFLICT",
      "Turn on two-factor sign-in for your own account first (in your profile), then require it of others.",
    );
  }
  await ctx.db
    .update(organizations)
    .set({ twoFactorPolicy: input.twoFactorPolicy, updatedAt: new Date() })
    .where(eq(organizations.id, ctx.orgId));
  await audit(ctx, "settings.security_changed", null, { two_factor_policy: input.twoFactorPolicy });
  return getSecuritySettings(ctx);
}
