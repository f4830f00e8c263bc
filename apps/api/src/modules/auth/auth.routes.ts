import {
  acceptInviteBody,
  authAnswer,
  forgotPasswordBody,
  invitationAnswer,
  invitationLookupBody,
  loginBody,
  meAnswer,
  messageAnswer,
  profileBody,
  registerBody,
  resetPasswordBody,
  resetTokenCheckBody,
} from "@cove/contract/auth.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import { loginAnswer } from "@cove/contract/security.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import type { Secrets } from "../../platform/secrets.ts";
import * as invitation from "./accept-invite.service.ts";
import * as auth from "./auth.service.ts";
import { securityRoutes, signInFrom } from "./security.routes.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  409: errorSchema,
  410: errorSchema,
  429: errorSchema,
};
const tags = ["auth"];

const minutes = (ms: number) => {
  const n = Math.max(1, Math.ceil(ms / 60_000));
  return `${n} minute${n === 1 ? "" : "s"}`;
};

export interface AuthRoutesOptions {
  /** Organizations one address may register per hour (REGISTRATIONS_PER_HOUR). */
  registrationsPerHour: number;
  /** Seals members' TOTP secrets (SECRETS_KEY). */
  secrets: Secrets;
}

export async function authRoutes(fastify: FastifyInstance, opts: AuthRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post("/api/auth/register", {
    config: {
      access: "public",
      // Per address (an IPv6 /64), counted once a form is valid: a taken email's 409 is counted like a sign-up, so
      // neither new organizations nor the question "does this email have an account?" can be asked in bulk, while
      // a form sent back with mistakes costs nothing.
      rateLimit: {
        max: opts.registrationsPerHour,
        timeWindow: "1 hour",
        hook: "preHandler",
        errorResponseBuilder: (_req, ctx) =>
          new AppError("RATE_LIMITED", `Too many sign-ups from your network. Please try again in ${minutes(ctx.ttl)}.`),
      },
    },
    schema: { tags, summary: "Start a free trial", body: registerBody, response: { 201: authAnswer, ...errors } },
    handler: async (req, reply) => reply.status(201).send(await auth.register(app.db, req.body, signInFrom(req))),
  });

  app.post("/api/auth/login", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "Sign in: a session, or for an account with two-factor sign-in a challenge for /api/auth/login/2fa",
      body: loginBody,
      response: { 200: loginAnswer, ...errors },
    },
    handler: async (req) => auth.login(app.db, req.body, signInFrom(req)),
  });

  app.post("/api/auth/logout", {
    // Signing out and one's own account keep working while the organization is read-only (billing).
    config: { access: "authenticated", allowedWhenReadOnly: true, duringEnrolment: true },
    schema: { tags, summary: "Sign out: revokes this session", response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      await inRequest(app, req, (ctx) => auth.logout(ctx, sessionId));
      return { message: "Signed out" };
    },
  });

  app.get("/api/auth/me", {
    config: { access: "authenticated", duringEnrolment: true },
    schema: { tags, summary: "The signed-in user", response: { 200: meAnswer, ...errors } },
    handler: async (req) => ({ user: await inRequest(app, req, auth.me) }),
  });

  app.put("/api/auth/profile", {
    config: { access: "authenticated", allowedWhenReadOnly: true },
    schema: {
      tags,
      summary: "Update your own names, picture or password (a new password ends your other sessions)",
      body: profileBody,
      response: { 200: meAnswer, ...errors },
    },
    handler: async (req) => ({
      user: await auth.updateProfile((fn) => inRequest(app, req, fn), principalOf(req).sessionId, req.body),
    }),
  });

  app.post("/api/auth/invite-details", {
    config: { access: "public", rateLimit: { max: 30, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Who invited whom: what the accept-invitation page shows (the token travels in the body, not the URL)",
      body: invitationLookupBody,
      response: { 200: invitationAnswer, ...errors },
    },
    handler: async (req) => invitation.lookupInvitation(app.db, req.body.token),
  });

  app.post("/api/auth/accept-invite", {
    config: { access: "public", rateLimit: { max: 10, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Accept an invitation: set your names and password, and sign in",
      body: acceptInviteBody,
      response: { 200: authAnswer, ...errors },
    },
    handler: async (req) => invitation.acceptInvitation(app.db, req.body, signInFrom(req)),
  });

  await securityRoutes(fastify, { secrets: opts.secrets });

  app.jobs.work(auth.PASSWORD_RESET_QUEUE, ({ email }) =>
    auth.sendPasswordReset(app.db, { jobs: app.jobs, publicUrl: app.publicUrl }, email),
  );

  app.post("/api/auth/forgot-password", {
    config: { access: "public", rateLimit: { max: 5, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Email a single-use password reset link (always answers 200)",
      body: forgotPasswordBody,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      try {
        await auth.forgotPassword(app.db, app.jobs, req.body);
      } catch (err) {
        // The answer must not reveal whether the email exists, so a failure to queue the mail is logged, not reported.
        req.log.error({ err }, "password reset email failed");
      }
      return { message: auth.FORGOT_PASSWORD_MESSAGE };
    },
  });

  app.post("/api/auth/reset-password/check", {
    config: { access: "public", rateLimit: { max: 30, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Whether a reset link still works, without using it (what its page shows first)",
      body: resetTokenCheckBody,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await auth.checkResetToken(app.db, req.body.token);
      return { message: "This link is valid: choose your new password." };
    },
  });

  app.post("/api/auth/reset-password", {
    config: { access: "public", rateLimit: { max: 10, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Choose a new password with a reset link's token",
      body: resetPasswordBody,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await auth.resetPassword(app.db, req.body);
      return { message: "Your password has been reset. You can now sign in with your new password." };
    },
  });
}

declare module "fastify" {
  interface FastifyInstance {
    publicUrl: string;
  }
}
