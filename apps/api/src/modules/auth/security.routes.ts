import { securityApi } from "@cove/contract/security.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { clientAddress } from "../../platform/client-address.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import type { Secrets } from "../../platform/secrets.ts";
import type { SignInFrom } from "./auth.service.ts";
import * as sessions from "./sessions.service.ts";
import * as twoFactor from "./two-factor.service.ts";

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
export async function securityRoutes(app: FastifyInstance, opts: { secrets: Secrets }) {
  const deps = (): twoFactor.TwoFactorDeps => ({ secrets: opts.secrets, jobs: app.jobs, publicUrl: app.publicUrl });
  const own = { allowedWhenReadOnly: true } as const;

  addRoute(app, securityApi.loginSecondFactor, {
    handler: async (req) => twoFactor.loginWithSecondFactor(app.db, opts.secrets, req.body, signInFrom(req)),
  });

  addRoute(app, securityApi.twoFactor, {
    config: { duringEnrolment: true },
    handler: async (req) => inRequest(app, req, twoFactor.twoFactorStatus),
  });

  addRoute(app, securityApi.startTwoFactor, {
    config: { ...own, duringEnrolment: true },
    handler: async (req) => inRequest(app, req, (ctx) => twoFactor.setupTwoFactor(ctx, opts.secrets)),
  });

  addRoute(app, securityApi.enableTwoFactor, {
    config: { ...own, duringEnrolment: true },
    handler: async (req) =>
      twoFactor.enableTwoFactor(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      }),
  });

  addRoute(app, securityApi.newRecoveryCodes, {
    config: own,
    handler: async (req) =>
      twoFactor.regenerateRecoveryCodes(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      }),
  });

  addRoute(app, securityApi.disableTwoFactor, {
    config: own,
    handler: async (req) => {
      await twoFactor.disableTwoFactor(app.db, (fn) => inRequest(app, req, fn), deps(), {
        code: req.body.code,
        ip: clientAddress(req.ip),
      });
      return { message: "Two-factor sign-in is off." };
    },
  });

  addRoute(app, securityApi.sessions, {
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      return inRequest(app, req, (ctx) => sessions.listSessions(ctx, sessionId));
    },
  });

  addRoute(app, securityApi.signOutSession, {
    config: own,
    handler: async (req) => {
      await inRequest(app, req, (ctx) => sessions.revokeSession(ctx, recordId("Session", req.params.id)));
      return { message: "Signed out of that session." };
    },
  });

  addRoute(app, securityApi.signOutOtherSessions, {
    config: own,
    handler: async (req) => {
      const { sessionId } = principalOf(req);
      const n = await inRequest(app, req, (ctx) => sessions.revokeOtherSessions(ctx, sessionId));
      return { message: n === 1 ? "Signed out of 1 other session." : `Signed out of ${n} other sessions.` };
    },
  });

  await adminSecurityRoutes(app, opts);
}

/** The organization's security settings and an admin's actions on a member's sign-in (admins only). */
async function adminSecurityRoutes(app: FastifyInstance, opts: { secrets: Secrets }) {
  const deps = (): twoFactor.TwoFactorDeps => ({ secrets: opts.secrets, jobs: app.jobs, publicUrl: app.publicUrl });

  addRoute(app, securityApi.settings, { handler: async (req) => inRequest(app, req, twoFactor.getSecuritySettings) });

  addRoute(app, securityApi.updateSettings, {
    handler: async (req) => inRequest(app, req, (ctx) => twoFactor.updateSecuritySettings(ctx, req.body)),
  });

  addRoute(app, securityApi.resetMemberTwoFactor, {
    handler: async (req) => {
      const id = recordId("User", req.params.id);
      await inRequest(app, req, (ctx) => twoFactor.resetMemberTwoFactor(ctx, deps(), id));
      return { message: "Two-factor sign-in was reset. We emailed the member to let them know." };
    },
  });

  addRoute(app, securityApi.signOutMember, {
    handler: async (req) => {
      const id = recordId("User", req.params.id);
      await inRequest(app, req, (ctx) => sessions.signOutMember(ctx, id));
      return { message: "The member was signed out everywhere." };
    },
  });
}
