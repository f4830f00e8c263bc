import { z } from "zod";
import { authAnswer, messageAnswer } from "./auth.ts";
import { TWO_FACTOR_POLICIES } from "./constants.ts";
import { textRequired } from "./messages.ts";
import { defineRoute, idParams } from "./routes.ts";

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

const tags = ["auth"];

/**
 * Two-factor sign-in, the member's sessions, the organization's security settings, and an admin's actions on a
 * member's sign-in. A wrong code counts against the sign-in throttle (RATE_LIMITED) like a wrong password.
 */
export const securityApi = {
  // INVALID_TOKEN: the challenge expired or was used; INVALID_CREDENTIALS: a wrong code; RATE_LIMITED: too many.
  loginSecondFactor: defineRoute({
    method: "POST",
    path: "/api/auth/login/2fa",
    summary: "Sign in, second step: a code from the authenticator app or a recovery code, for the login's challenge",
    tags,
    access: "public",
    body: loginTwoFactorBody,
    answers: { 200: authAnswer },
    errors: ["INVALID_TOKEN", "INVALID_CREDENTIALS", "RATE_LIMITED"],
  }),
  twoFactor: defineRoute({
    method: "GET",
    path: "/api/auth/2fa",
    summary: "Your two-factor sign-in: on or off, required, recovery codes left",
    tags,
    access: "authenticated",
    answers: { 200: twoFactorStatus },
  }),
  // CONFLICT: two-factor sign-in is already on.
  startTwoFactor: defineRoute({
    method: "POST",
    path: "/api/auth/2fa/setup",
    summary: "Start setting up two-factor sign-in: a new secret, its otpauth:// address and QR code",
    tags,
    access: "authenticated",
    answers: { 200: twoFactorSetupAnswer },
    errors: ["CONFLICT"],
  }),
  // BAD_REQUEST: a wrong code; CONFLICT: no set-up started, or already on.
  enableTwoFactor: defineRoute({
    method: "POST",
    path: "/api/auth/2fa/enable",
    summary: "Confirm set-up with a code: two-factor sign-in is on; answers the recovery codes (shown once)",
    tags,
    access: "authenticated",
    body: twoFactorCodeBody,
    answers: { 200: recoveryCodesAnswer },
    errors: ["BAD_REQUEST", "CONFLICT", "RATE_LIMITED"],
  }),
  // BAD_REQUEST: a wrong code; CONFLICT: two-factor sign-in is off.
  newRecoveryCodes: defineRoute({
    method: "POST",
    path: "/api/auth/2fa/recovery-codes",
    summary: "New recovery codes for a current code (the old ones stop working)",
    tags,
    access: "authenticated",
    body: twoFactorCodeBody,
    answers: { 200: recoveryCodesAnswer },
    errors: ["BAD_REQUEST", "CONFLICT", "RATE_LIMITED"],
  }),
  // FORBIDDEN: the organization requires it of the member; BAD_REQUEST: a wrong code; CONFLICT: it is off.
  disableTwoFactor: defineRoute({
    method: "POST",
    path: "/api/auth/2fa/disable",
    summary: "Turn two-factor sign-in off with a current code",
    tags,
    access: "authenticated",
    body: twoFactorCodeBody,
    answers: { 200: messageAnswer },
    errors: ["FORBIDDEN", "BAD_REQUEST", "CONFLICT", "RATE_LIMITED"],
  }),
  sessions: defineRoute({
    method: "GET",
    path: "/api/auth/sessions",
    summary: "Where you're signed in",
    tags,
    access: "authenticated",
    answers: { 200: sessionsAnswer },
  }),
  signOutSession: defineRoute({
    method: "DELETE",
    path: "/api/auth/sessions/:id",
    summary: "Sign out one of your sessions",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
  signOutOtherSessions: defineRoute({
    method: "DELETE",
    path: "/api/auth/sessions",
    summary: "Sign out everywhere else (every session but this one)",
    tags,
    access: "authenticated",
    answers: { 200: messageAnswer },
  }),
  settings: defineRoute({
    method: "GET",
    path: "/api/settings/security",
    summary: "Security settings: who must use two-factor sign-in",
    tags,
    access: "admin",
    answers: { 200: securitySettings },
  }),
  // CONFLICT: the admin requires it of others before turning it on for themselves.
  updateSettings: defineRoute({
    method: "PUT",
    path: "/api/settings/security",
    summary: "Require two-factor sign-in of admins, of everyone, or of nobody",
    tags,
    access: "admin",
    body: updateSecurityBody,
    answers: { 200: securitySettings },
    errors: ["CONFLICT"],
  }),
  // CONFLICT: the member has no second factor to reset.
  resetMemberTwoFactor: defineRoute({
    method: "POST",
    path: "/api/users/:id/2fa/reset",
    summary: "Reset a member's two-factor sign-in (they lost their device); the member is told by email",
    tags: ["users"],
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
    errors: ["CONFLICT"],
  }),
  signOutMember: defineRoute({
    method: "DELETE",
    path: "/api/users/:id/sessions",
    summary: "Sign a member out everywhere",
    tags: ["users"],
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
};
