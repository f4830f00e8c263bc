import { apiKeysApi } from "@cove/contract/settings.ts";
import type { FastifyInstance } from "fastify";
import { API_KEY_PREFIX, inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as keys from "./api-keys.service.ts";

/** The keys of the public API (the contract's apiKeysApi: admins only); a key's token signs its calls. */
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
  addRoute(fastify, apiKeysApi.list, { handler: (req) => inRequest(fastify, req, keys.listApiKeys) });

  addRoute(fastify, apiKeysApi.create, {
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(fastify, req, (ctx) => keys.createApiKey(ctx, req.body))),
  });

  addRoute(fastify, apiKeysApi.revoke, {
    handler: (req) => inRequest(fastify, req, (ctx) => keys.revokeApiKey(ctx, req.params.id)),
  });
}
