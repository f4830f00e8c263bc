import { authApi } from "@cove/contract/auth.ts";
import type { FastifyInstance } from "fastify";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { addRoute } from "../../platform/routes.ts";
import type { Secrets } from "../../platform/secrets.ts";
import * as invitation from "./accept-invite.service.ts";
import * as auth from "./auth.service.ts";
import { securityRoutes, signInFrom } from "./security.routes.ts";

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

/** Signing up, in and out, one's own account, invitations and password resets (the contract's authApi). */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  addRoute(app, authApi.register, {
    config: {
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
    handler: async (req, reply) => reply.status(201).send(await auth.register(app.db, req.body, signInFrom(req))),
  });

  addRoute(app, authApi.login, { handler: async (req) => auth.login(app.db, req.body, signInFrom(req)) });

  addRoute(app, authApi.logout, {
    // Signing out and one's own account keep working while the organization is read-only (billing).
    config: { allowedWhenReadOnly: true, duringEnrolment: true },
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      await inRequest(app, req, (ctx) => auth.logout(ctx, sessionId));
      return { message: "Signed out" };
    },
  });

  addRoute(app, authApi.me, {
    config: { duringEnrolment: true },
    handler: async (req) => ({ user: await inRequest(app, req, auth.me) }),
  });

  addRoute(app, authApi.updateProfile, {
    config: { allowedWhenReadOnly: true },
    handler: async (req) => ({
      user: await auth.updateProfile((fn) => inRequest(app, req, fn), principalOf(req).sessionId, req.body),
    }),
  });

  addRoute(app, authApi.invitation, {
    config: { rateLimit: { max: 30, timeWindow: "15 minutes" } },
    handler: async (req) => invitation.lookupInvitation(app.db, req.body.token),
  });

  addRoute(app, authApi.acceptInvite, {
    config: { rateLimit: { max: 10, timeWindow: "15 minutes" } },
    handler: async (req) => invitation.acceptInvitation(app.db, req.body, signInFrom(req)),
  });

  await securityRoutes(app, { secrets: opts.secrets });

  app.jobs.work(auth.PASSWORD_RESET_QUEUE, ({ email }) =>
    auth.sendPasswordReset(app.db, { jobs: app.jobs, publicUrl: app.publicUrl }, email),
  );

  addRoute(app, authApi.forgotPassword, {
    config: { rateLimit: { max: 5, timeWindow: "15 minutes" } },
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

  addRoute(app, authApi.checkResetToken, {
    config: { rateLimit: { max: 30, timeWindow: "15 minutes" } },
    handler: async (req) => {
      await auth.checkResetToken(app.db, req.body.token);
      return { message: "This link is valid: choose your new password." };
    },
  });

  addRoute(app, authApi.resetPassword, {
    config: { rateLimit: { max: 10, timeWindow: "15 minutes" } },
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
