import { messageAnswer } from "@cove/contract/auth.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import { inviteUserBody, updateUserBody, userAnswer, userListAnswer } from "@cove/contract/users.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest, principalOf } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import * as invitations from "./invitations.service.ts";
import * as service from "./users.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const inviteErrors = { ...errors, 429: errorSchema };
const tags = ["users"];

/** The team (docs/product.md, "Roles"): every member reads the list; only an admin invites, changes or removes. */
export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const mail = () => ({ jobs: app.jobs, publicUrl: app.publicUrl });

  app.get("/api/users", {
    config: { access: "authenticated" },
    schema: { tags, summary: "The team, and the seats it uses", response: { 200: userListAnswer, ...errors } },
    handler: (req) => inRequest(app, req, service.listUsers),
  });

  app.post("/api/users/invite", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Invite someone by email (they hold a seat until they accept or the invitation is revoked)",
      body: inviteUserBody,
      response: { 201: userAnswer, ...inviteErrors },
    },
    handler: async (req, reply) => {
      await invitations.refuseAccountElsewhere(app.db, principalOf(req).orgId, req.body.email);
      return reply
        .status(201)
        .send({ user: await inRequest(app, req, (ctx) => invitations.inviteUser(ctx, req.body, mail())) });
    },
  });

  app.put("/api/users/:id", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Change a member's role, or deactivate or activate them",
      params: idParams,
      body: updateUserBody,
      response: { 200: userAnswer, ...errors },
    },
    handler: async (req) => ({
      user: await inRequest(app, req, (ctx) => service.updateUser(ctx, recordId("User", req.params.id), req.body)),
    }),
  });

  app.post("/api/users/:id/resend-invite", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Email a pending invitation again with a new link",
      params: idParams,
      response: { 200: userAnswer, ...errors },
    },
    handler: async (req) => ({
      user: await inRequest(app, req, (ctx) =>
        invitations.resendInvitation(ctx, recordId("User", req.params.id), mail()),
      ),
    }),
  });

  app.delete("/api/users/:id", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Revoke a pending invitation (members who joined are deactivated instead)",
      params: idParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.revokeInvitation(ctx, recordId("User", req.params.id)));
      return { message: "Invitation revoked" };
    },
  });
}
