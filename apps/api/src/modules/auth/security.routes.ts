import { authAnswer, messageAnswer } from "@cove/contract/auth.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  loginTwoFactorBody,
  recoveryCodesAnswer,
  securitySettings,
  sessionsAnswer,
  twoFactorCodeBody,
  twoFactorSetupAnswer,
  twoFactorStatus,
  updateSecurityBody,
} from "@cove/contract/security.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { clientAddress } from "../../platform/client-address.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { Secrets } from "../../platform/secrets.ts";
import type { SignInFrom } from "./auth.service.ts";
import * as sessions from "./sessions.service.ts";
import * as twoFactor from "./two-factor.service.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
const tags = ["auth"];

/** Where a request comes from: its address as the throttles count it, and its browser. */
export const signInFrom = (req: FastifyRequest): SignInFrom => ({
  ip: clientAddress(req.ip),
  userAgent: req.headers["user-agent"] ?? null,
});

/**
 * Two-factor sign-in, the member's sessions, the organization's security settings, and the admin's actions on a
 * member's sign-in (issue 32). One's own security stays open while the organization is read-only (billing), like
 * signing out; set-up, me and sign-out are also open to a member who must first enrol (platform/auth.ts).
 */
export async function securityRoutes(fastify: FastifyInstance, opts: { secrets: Secrets }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (): twoFactor.TwoFactorDeps => ({ secrets: opts.secrets, jobs: app.jobs, publicUrl: app.publicUrl });
  const own = { access: "authenticated", allowedWhenReadOnly: true } as const;

  app.post("/api/auth/login/2fa", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "Sign in, second step: a code from the authenticator app or a recovery code, for the login's challenge",
      body: loginTwoFactorBody,
      response: { 200: authAnswer, ...errors },
    },
    handler: async (req) => twoFactor.loginWithSecondFactor(app.db, opts.secrets, req.body, signInFrom(req)),
  });

  app.get("/api/auth/2fa", {
    config: { access: "authenticated", duringEnrolment: true },
    schema: {
      tags,
      summary: "Your two-factor sign-in: on or off, required, recovery codes left",
      response: { 200: twoFactorStatus, ...errors },
    },
    handler: async (req) => inRequest(app, req, twoFactor.twoFactorStatus),
  });

  app.post("/api/auth/2fa/setup", {
    config: { ...own, duringEnrolment: true },
    schema: {
      tags,
      summary: "Start setting up two-factor sign-in: a new secret, its otpauth:// address and QR code",
      response: { 200: twoFactorSetupAnswer, ...errors },
    },
    handler: async (req) => inRequest(app, req, (ctx) => twoFactor.setupTwoFactor(ctx, opts.secrets)),
  });

  app.post("/api/auth/2fa/enable", {
    config: { ...own, duringEnrolment: true },
    schema: {
      tags,
      summary: "Confirm set-up with a code: two-factor sign-in is on; answers the recovery codes (shown once)",
      body: twoFactorCodeBody,
      response: { 200: recoveryCodesAnswer, ...errors },
    },
    handler: async (req) =>
      twoFactor.enableTwoFactor(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      }),
  });

  app.post("/api/auth/2fa/recovery-codes", {
    config: own,
    schema: {
      tags,
      summary: "New recovery codes for a current code (the old ones stop working)",
      body: twoFactorCodeBody,
      response: { 200: recoveryCodesAnswer, ...errors },
    },
    handler: async (req) =>
      twoFactor.regenerateRecoveryCodes(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      }),
  });

  app.post("/api/auth/2fa/disable", {
    config: own,
    schema: {
      tags,
      summary: "Turn two-factor sign-in off with a current code",
      body: twoFactorCodeBody,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await twoFactor.disableTwoFactor(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      });
      return { message: "Two-factor sign-in is off." };
    },
  });

  app.get("/api/auth/sessions", {
    config: { access: "authenticated" },
    schema: { tags, summary: "Where you're signed in", response: { 200: sessionsAnswer, ...errors } },
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      return inRequest(app, req, (ctx) => sessions.listSessions(ctx, sessionId));
    },
  });

  app.delete("/api/auth/sessions/:id", {
    config: own,
    schema: {
      tags,
      summary: "Sign out one of your sessions",
      params: idParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => sessions.revokeSession(ctx, recordId("Session", req.params.id)));
      return { message: "Signed out of that session." };
    },
  });

  app.delete("/api/auth/sessions", {
    config: own,
    schema: {
      tags,
      summary: "Sign out everywhere else (every session but this one)",
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      const n = await inRequest(app, req, (ctx) => sessions.revokeOtherSessions(ctx, sessionId));
      return { message: n === 1 ? "Signed out of 1 other session." : `Signed out of ${n} other sessions.` };
    },
  });

  await adminSecurityRoutes(fastify, opts);
}

/** The organization's security settings and an admin's actions on a member's sign-in (admins only). */
async function adminSecurityRoutes(fastify: FastifyInstance, opts: { secrets: Secrets }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (): twoFactor.TwoFactorDeps => ({ secrets: opts.secrets, jobs: app.jobs, publicUrl: app.publicUrl });

  app.get("/api/settings/security", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Security settings: who must use two-factor sign-in",
      response: { 200: securitySettings, ...errors },
    },
    handler: async (req) => inRequest(app, req, twoFactor.getSecuritySettings),
  });

  app.put("/api/settings/security", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Require two-factor sign-in of admins, of everyone, or of nobody",
      body: updateSecurityBody,
      response: { 200: securitySettings, ...errors },
    },
    handler: async (req) => inRequest(app, req, (ctx) => twoFactor.updateSecuritySettings(ctx, req.body)),
  });

  app.post("/api/users/:id/2fa/reset", {
    config: { access: "admin" },
    schema: {
      tags: ["users"],
      summary: "Reset a member's two-factor sign-in (they lost their device); the member is told by email",
      params: idParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      const id = recordId("User", req.params.id);
      await inRequest(app, req, (ctx) => twoFactor.resetMemberTwoFactor(ctx, deps(), id));
      return { message: "Two-factor sign-in was reset. We emailed the member to let them know." };
    },
  });

  app.delete("/api/users/:id/sessions", {
    config: { access: "admin" },
    schema: {
      tags: ["users"],
      summary: "Sign a member out everywhere",
      params: idParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      const id = recordId("User", req.params.id);
      await inRequest(app, req, (ctx) => sessions.signOutMember(ctx, id));
      return { message: "The member was signed out everywhere." };
    },
  });
}
