import { errorSchema } from "@cove/contract/errors.ts";
import {
  apiKey,
  apiKeyListAnswer,
  apiKeyParams,
  createApiKeyAnswer,
  createApiKeyBody,
} from "@cove/contract/settings.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { API_KEY_PREFIX, inRequest } from "../../platform/auth.ts";
import * as keys from "./api-keys.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
/** Listed with the settings in the API document: admins manage keys on the Settings page. */
const tags = ["settings"];
/** API keys are for admins (docs/product.md, "Roles"). */
const admin = { access: "admin" } as const;

/** The keys of the public API: an admin creates, lists and revokes them; a key's token signs its calls. */
export async function apiKeyRoutes(fastify: FastifyInstance) {
  // Keys made here sign public API calls: the authenticator asks this module who a key's hash belongs to.
  fastify.authenticator.register(API_KEY_PREFIX, async (db, hash) => {
    const key = await keys.findApiKeyByHash(db, hash);
    if (!key) return null;
    return {
      principal: { kind: "api_key", orgId: key.orgId, keyId: key.id, scope: key.scope, plan: key.plan },
      expiresAt: null,
    };
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/settings/api-keys", {
    config: admin,
    schema: {
      tags,
      summary: "API keys for the public API (never their tokens)",
      response: { 200: apiKeyListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, keys.listApiKeys),
  });

  app.post("/api/settings/api-keys", {
    config: admin,
    schema: {
      tags,
      summary: "Create an API key: its token is in this answer only",
      body: createApiKeyBody,
      response: { 201: createApiKeyAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(app, req, (ctx) => keys.createApiKey(ctx, req.body))),
  });

  app.delete("/api/settings/api-keys/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Revoke an API key: it stops working at once",
      params: apiKeyParams,
      response: { 200: z.object({ api_key: apiKey }), ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => keys.revokeApiKey(ctx, req.params.id)),
  });
}
