import { z } from "zod";
import { AVATAR_MAX_BYTES, PASSWORD_MAX, PASSWORD_MIN, ROLES } from "./constants.ts";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import { textRequired } from "./messages.ts";
import { defineRoute } from "./routes.ts";

const noNul = (s: string) => !s.includes("\u0000");

/** A required single-line text field, trimmed, with a length bound and no NUL bytes. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: textRequired(label) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(noNul, `${label} contains an invalid character`);

export const emailField = z
  .string({ error: textRequired("Email") })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email("Enter a valid email address"))
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: textRequired("Password") })
  .min(1, "Password is required")
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`)
  .refine(noNul, "Password contains an invalid character");

export const registerBody = z.object({
  organizationName: requiredText("Company name", 120),
  firstName: requiredText("First name", 80),
  lastName: requiredText("Last name", 80),
  email: emailField,
  password: passwordField,
});
export type RegisterBody = z.input<typeof registerBody>;

export const loginBody = z.object({
  email: emailField,
  password: z
    .string({ error: textRequired("Password") })
    .min(1, "Password is required")
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginBody = z.input<typeof loginBody>;

export const sessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  organizationName: z.string(),
  organizationId: z.uuid(),
  organizationSlug: z.string(),
  avatarUrl: z.string().nullable(),
  /** The member signs in with a second factor (TOTP). */
  twoFactorEnabled: z.boolean(),
  /** The organization requires a second factor of this member (if not yet enabled, only enrolment is open to them). */
  twoFactorRequired: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const authAnswer = z.object({ token: z.string(), user: sessionUser });
export type AuthAnswer = z.infer<typeof authAnswer>;

export const meAnswer = z.object({ user: sessionUser });
export type MeAnswer = z.infer<typeof meAnswer>;

/** The password was right and the account has a second factor: no session yet, a short-lived challenge instead. */
export const loginChallengeAnswer = z.object({ twoFactorRequired: z.literal(true), challenge: z.string() });
export type LoginChallengeAnswer = z.infer<typeof loginChallengeAnswer>;

export const loginAnswer = z.union([authAnswer, loginChallengeAnswer]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

const AVATAR_PREFIX = /^data:(image\/(?:png|jpeg|webp));base64,/;
/** Base64 text of AVATAR_MAX_BYTES, plus the longest prefix. */
const AVATAR_TEXT_MAX = Math.ceil(AVATAR_MAX_BYTES / 3) * 4 + "data:image/jpeg;base64,".length;

/**
 * A profile picture as a data URL (an <img> cannot send the bearer token, so the picture travels inline). The server
 * also checks the bytes themselves; "" or null removes the picture.
 */
export const avatarField = z
  .string()
  .max(AVATAR_TEXT_MAX, `The picture must be at most ${AVATAR_MAX_BYTES / 1024} KB`)
  .refine(
    (u) => u === "" || (AVATAR_PREFIX.test(u) && /^[A-Za-z0-9+/]+={0,2}$/.test(u.replace(AVATAR_PREFIX, ""))),
    "The picture must be a PNG, JPEG or WebP image",
  )
  .transform((u) => (u === "" ? null : u))
  .nullable();

export const profileBody = z
  .object({
    firstName: requiredText("First name", 80).optional(),
    lastName: requiredText("Last name", 80).optional(),
    avatarUrl: avatarField.optional(),
    currentPassword: z
      .string()
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`)
      .optional(),
    newPassword: passwordField.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one profile field to change")
  .refine((b) => b.newPassword === undefined || (b.currentPassword ?? "") !== "", {
    message: "Enter your current password to choose a new one",
    path: ["currentPassword"],
  });
export type ProfileBody = z.input<typeof profileBody>;

export const forgotPasswordBody = z.object({ email: emailField });
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;

const resetTokenField = z
  .string({ error: "The reset link is missing its token" })
  .min(1, "The reset link is missing its token")
  .max(200);

export const resetPasswordBody = z.object({
  token: resetTokenField,
  password: passwordField,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/** Whether a reset link still works, asked when its page opens (the token travels in the body, not the URL). */
export const resetTokenCheckBody = z.object({ token: resetTokenField });
export type ResetTokenCheckBody = z.input<typeof resetTokenCheckBody>;

export const messageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswer>;

/** An invitation link's token, as it arrives from the email. */
export const invitationTokenField = z
  .string({ error: "The invitation link is missing its token" })
  .min(1, "The invitation link is missing its token")
  .max(200, "The invitation link is not valid");

export const invitationLookupBody = z.object({ token: invitationTokenField });
export type InvitationLookupBody = z.input<typeof invitationLookupBody>;

/** What the invited person sees before accepting (new endpoint: snake_case). */
export const invitationAnswer = z.object({
  organization_name: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
  expires_at: z.iso.datetime(),
});
export type InvitationAnswer = z.infer<typeof invitationAnswer>;

export const acceptInviteBody = z.object({
  token: invitationTokenField,
  firstName: requiredText("First name", 80),
  lastName: requiredText("Last name", 80),
  password: passwordField,
});
export type AcceptInviteBody = z.input<typeof acceptInviteBody>;

const tags = ["auth"];

/**
 * Signing up, in and out, one's own account, an invitation's acceptance and a forgotten password (the second factor
 * and sessions: securityApi in security.ts). The public ones are rate limited by the API (per address), or count
 * their failures against the sign-in throttle.
 */
export const authApi = {
  // EMAIL_TAKEN: the address already has an account.
  register: defineRoute({
    method: "POST",
    path: "/api/auth/register",
    summary: "Start a free trial",
    tags,
    access: "public",
    body: registerBody,
    answers: { 201: authAnswer },
    errors: ["EMAIL_TAKEN"],
  }),
  // INVALID_CREDENTIALS: a wrong email or password; FORBIDDEN: a deactivated member; RATE_LIMITED: too many failures.
  login: defineRoute({
    method: "POST",
    path: "/api/auth/login",
    summary: "Sign in: a session, or for an account with two-factor sign-in a challenge for /api/auth/login/2fa",
    tags,
    access: "public",
    body: loginBody,
    answers: { 200: loginAnswer },
    errors: ["INVALID_CREDENTIALS", "FORBIDDEN", "RATE_LIMITED"],
  }),
  logout: defineRoute({
    method: "POST",
    path: "/api/auth/logout",
    summary: "Sign out: revokes this session",
    tags,
    access: "authenticated",
    answers: { 200: messageAnswer },
  }),
  me: defineRoute({
    method: "GET",
    path: "/api/auth/me",
    summary: "The signed-in user",
    tags,
    access: "authenticated",
    answers: { 200: meAnswer },
  }),
  // BAD_REQUEST: the current password is wrong; CONFLICT: the password was changed meanwhile.
  updateProfile: defineRoute({
    method: "PUT",
    path: "/api/auth/profile",
    summary: "Update your own names, picture or password (a new password ends your other sessions)",
    tags,
    access: "authenticated",
    body: profileBody,
    answers: { 200: meAnswer },
    errors: ["BAD_REQUEST", "CONFLICT"],
  }),
  // INVALID_TOKEN: no such invitation; INVITATION_USED, INVITATION_EXPIRED; EMAIL_TAKEN: the address joined elsewhere.
  invitation: defineRoute({
    method: "POST",
    path: "/api/auth/invite-details",
    summary: "Who invited whom: what the accept-invitation page shows (the token travels in the body, not the URL)",
    tags,
    access: "public",
    body: invitationLookupBody,
    answers: { 200: invitationAnswer },
    errors: ["INVALID_TOKEN", "INVITATION_USED", "INVITATION_EXPIRED", "EMAIL_TAKEN"],
  }),
  acceptInvite: defineRoute({
    method: "POST",
    path: "/api/auth/accept-invite",
    summary: "Accept an invitation: set your names and password, and sign in",
    tags,
    access: "public",
    body: acceptInviteBody,
    answers: { 200: authAnswer },
    errors: ["INVALID_TOKEN", "INVITATION_USED", "INVITATION_EXPIRED", "EMAIL_TAKEN"],
  }),
  forgotPassword: defineRoute({
    method: "POST",
    path: "/api/auth/forgot-password",
    summary: "Email a single-use password reset link (always answers 200)",
    tags,
    access: "public",
    body: forgotPasswordBody,
    answers: { 200: messageAnswer },
  }),
  // INVALID_TOKEN: the link is unknown, used or expired.
  checkResetToken: defineRoute({
    method: "POST",
    path: "/api/auth/reset-password/check",
    summary: "Whether a reset link still works, without using it (what its page shows first)",
    tags,
    access: "public",
    body: resetTokenCheckBody,
    answers: { 200: messageAnswer },
    errors: ["INVALID_TOKEN"],
  }),
  resetPassword: defineRoute({
    method: "POST",
    path: "/api/auth/reset-password",
    summary: "Choose a new password with a reset link's token",
    tags,
    access: "public",
    body: resetPasswordBody,
    answers: { 200: messageAnswer },
    errors: ["INVALID_TOKEN"],
  }),
};
