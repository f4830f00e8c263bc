import { TWO_FACTOR_CHALLENGE_MINUTES } from "@cove/contract/constants.ts";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { twoFactor, twoFactorChallenges, twoFactorRecoveryCodes } from "../../db/schema/auth.ts";
import { hashToken, newToken } from "../../platform/auth.ts";
import type { Queryable } from "../../platform/db.ts";

/** The member has a second factor turned on (set-up confirmed with a code). */
export async function hasSecondFactor(db: Queryable, who: { orgId: string; userId: string }): Promise<boolean> {
  const [row] = await db
    .select({ userId: twoFactor.userId })
    .from(twoFactor)
    .where(
      and(eq(twoFactor.organizationId, who.orgId), eq(twoFactor.userId, who.userId), isNotNull(twoFactor.enabledAt)),
    );
  return Boolean(row);
}

/** A sign-in waiting for its second factor: the token the client holds; only its hash is stored. */
export async function createChallenge(
  db: Queryable,
  user: { id: string; organizationId: string },
  rememberMe: boolean,
): Promise<string> {
  const token = newToken();
  // Challenges of the past are of no use: they go as new ones come, so the table stays small without a job.
  await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, new Date(Date.now() - 3_600_000)));
  await db.insert(twoFactorChallenges).values({
    organizationId: user.organizationId,
    userId: user.id,
    tokenHash: hashToken(token),
    rememberMe,
    expiresAt: new Date(Date.now() + TWO_FACTOR_CHALLENGE_MINUTES * 60_000),
  });
  return token;
}

/**
 * Takes a code's time step for a member: one conditional update, so of two requests with the same code (or codes of
 * an earlier step) only one gets a row back, however they interleave.
 */
export async function takeTimeStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const [taken] = await db
    .update(twoFactor)
    .set({ lastUsedStep: step, updatedAt: new Date() })
    .where(
      and(
        eq(twoFactor.userId, userId),
        isNotNull(twoFactor.enabledAt),
        or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
      ),
    )
    .returning({ userId: twoFactor.userId });
  return Boolean(taken);
}

/** Spends one of the member's recovery codes: a conditional update, so a code works once even when raced. */
export async function spendRecoveryCode(db: Queryable, userId: string, codeHash: string): Promise<boolean> {
  const [spent] = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return Boolean(spent);
}
