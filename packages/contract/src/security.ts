import { z } from "zod";
import { TWO_FACTOR_POLICIES } from "./constants.ts";
import { textRequired } from "./messages.ts";

/** Two-factor sign-in (TOTP) and signed-in sessions: issue 32, docs/decisions/2026-11-29-two-factor-and-sessions.md. */

export const CODE_MESSAGE = "Enter the 6-digit code from your authenticator app";
export const RECOVERY_CODE_MESSAGE = "Enter one of your recovery codes, like abcd-efgh-jkmn";

/** A code from an authenticator app: 6 digits; spaces and dashes typed or pasted in between are dropped. */
export const totpCodeField = z
  .string({ error: textRequired("Code") })
  .max(20, CODE_MESSAGE)
  .transform((s) => s.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE));

/** A recovery code as shown (three groups of four letters and digits); case, spaces and dashes do not matter. */
export const recoveryCodeField = z
  .string({ error: textRequired("Recovery code") })
  .max(40, RECOVERY_CODE_MESSAGE)
  .transform((s) => s.replace(/[\s-]/g, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{12}$/, RECOVERY_CODE_MESSAGE));

export const twoFactorCodeBody = z.object({ code: totpCodeField });
export type TwoFactorCodeBody = z.input<typeof twoFactorCodeBody>;

/** Set-up: the secret for manual entry, the otpauth:// address, and the same address as a QR code (an SVG data URL). */
export const twoFactorSetupAnswer = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCode: z.string(),
});
export type TwoFactorSetupAnswer = z.infer<typeof twoFactorSetupAnswer>;

/** Recovery codes, shown once: only their hashes are kept. */
export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesAnswer = z.infer<typeof recoveryCodesAnswer>;

/** The member's own second factor, for the profile. */
export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  /** The organization requires it of this member (then it cannot be turned off). */
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

export const loginTwoFactorBody = z
  .object({
    challenge: z
      .string({ error: textRequired("Challenge") })
      .min(1, "Sign in again")
      .max(200, "Sign in again"),
    code: totpCodeField.optional(),
    recoveryCode: recoveryCodeField.optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), {
    message: "Enter either a code from your authenticator app or a recovery code",
    path: ["code"],
  });
export type LoginTwoFactorBody = z.input<typeof loginTwoFactorBody>;

/** One place a member is signed in. */
export const sessionItem = z.object({
  id: z.uuid(),
  /** The session this request was made with. */
  current: z.boolean(),
  /** "Chrome on macOS", from the browser's User-Agent; "Unknown device" when it says nothing useful. */
  device: z.string(),
  /** The address it signed in from (an IPv6 address as its /64 network); null for sessions older than this list. */
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type SessionItem = z.infer<typeof sessionItem>;

export const sessionsAnswer = z.object({ sessions: z.array(sessionItem) });
export type SessionsAnswer = z.infer<typeof sessionsAnswer>;

export const securitySettings = z.object({ twoFactorPolicy: z.enum(TWO_FACTOR_POLICIES) });
export type SecuritySettings = z.infer<typeof securitySettings>;
export const updateSecurityBody = z.object({
  twoFactorPolicy: z.enum(TWO_FACTOR_POLICIES, { error: "Choose who must use two-factor sign-in" }),
});
export type UpdateSecurityBody = z.input<typeof updateSecurityBody>;
