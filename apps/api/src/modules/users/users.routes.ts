import { usersApi } from "@cove/contract/users.ts";
import type { FastifyInstance } from "fastify";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import * as invitations from "./invitations.service.ts";
import * as service from "./users.service.ts";

const userId = (id: string) => recordId("User", id);

/**
 * The team (docs/product.md, "Roles"; the contract's usersApi): every member reads the list; only an admin invites,
 * changes or removes.
 */
export async function userRoutes(app: FastifyInstance) {
  const mail = () => ({ jobs: app.jobs, publicUrl: app.publicUrl });

  addRoute(app, usersApi.list, { handler: (req) => inRequest(app, req, service.listUsers) });

  addRoute(app, usersApi.invite, {
    handler: async (req, reply) => {
      await invitations.refuseAccountElsewhere(app.db, principalOf(req).orgId, req.body.email);
      return reply
        .status(201)
        .send({ user: await inRequest(app, req, (ctx) => invitations.inviteUser(ctx, req.body, mail())) });
    },
  });

  addRoute(app, usersApi.update, {
    handler: async (req) => ({
      user: await inRequest(app, req, (ctx) => service.updateUser(ctx, userId(req.params.id), req.body)),
    }),
  });

  addRoute(app, usersApi.resendInvite, {
    handler: async (req) => ({
      user: await inRequest(app, req, (ctx) => invitations.resendInvitation(ctx, userId(req.params.id), mail())),
    }),
  });

  addRoute(app, usersApi.revokeInvite, {
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.revokeInvitation(ctx, userId(req.params.id)));
      return { message: "Invitation revoked" };
    },
  });
}
