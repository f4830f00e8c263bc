import { billingMessage } from "@cove/contract/billing.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  apiKey,
  apiKeyListAnswer,
  apiKeyParams,
  branding,
  brandingParams,
  createApiKeyAnswer,
  createApiKeyBody,
  deleteOrganizationBody,
  emailSettings,
  generalSettings,
  updateEmailBody,
  updateGeneralBody,
} from "@cove/contract/settings.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { API_KEY_PREFIX, inTenant } from "../../platform/auth.ts";
import type { Payments } from "../billing/payments.ts";
import * as keys from "./api-keys.service.ts";
import { deleteOrganization } from "./delete-organization.service.ts";
import * as settings from "./settings.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["settings"];
/** Settings, branding and API keys are for admins (docs/product.md, "Roles"). */
const admin = { access: "admin" } as const;

/** inboundDomain: INBOUND_DOMAIN, for the organization's inbound address in Email Settings (null: none). */
export async function settingsRoutes(
  fastify: FastifyInstance,
  opts: { payments: Payments; inboundDomain: string | null },
) {
  // Keys made here sign public API calls: the authenticator asks this module who a key's hash belongs to.
  fastify.authenticator.register(API_KEY_PREFIX, async (db, hash) => {
    const key = await keys.findApiKeyByHash(db, hash);
    if (!key) return null;
    return {
      principal: { kind: "api_key", orgId: key.orgId, keyId: key.id, scope: key.scope, plan: key.plan, verified: true },
      expiresAt: null,
    };
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/settings/general", {
    config: admin,
    schema: {
      tags,
      summary: "Name, help center address, time zone, logo and brand colour",
      response: { 200: generalSettings, ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => settings.getGeneral(ctx, app.publicUrl)),
  });

  app.put("/api/settings/general", {
    config: admin,
    schema: {
      tags,
      summary: "Change the name, help center address, time zone, logo (a data URL; null removes it) or brand colour",
      body: updateGeneralBody,
      response: { 200: generalSettings, ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => settings.updateGeneral(ctx, req.body, app.publicUrl)),
  });

  app.get("/api/settings/email", {
    config: admin,
    schema: {
      tags,
      summary: "Sender name, reply-to address and signature of outgoing mail",
      response: { 200: emailSettings, ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => settings.getEmail(ctx, opts.inboundDomain)),
  });

  app.put("/api/settings/email", {
    config: admin,
    schema: {
      tags,
      summary: "Change the email settings",
      body: updateEmailBody,
      response: { 200: emailSettings, ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => settings.updateEmail(ctx, req.body, opts.inboundDomain)),
  });

  app.get("/api/settings/api-keys", {
    config: admin,
    schema: {
      tags,
      summary: "API keys for the public API (never their tokens)",
      response: { 200: apiKeyListAnswer, ...errors },
    },
    handler: (req) => inTenant(app, req, keys.listApiKeys),
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
      reply.status(201).send(await inTenant(app, req, (ctx) => keys.createApiKey(ctx, req.body))),
  });

  app.delete("/api/settings/api-keys/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Revoke an API key: it stops working at once",
      params: apiKeyParams,
      response: { 200: z.object({ api_key: apiKey }), ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => keys.revokeApiKey(ctx, req.params.id)),
  });

  app.delete("/api/organization", {
    config: { access: "admin", allowedWhenReadOnly: true },
    schema: {
      tags,
      summary: "Delete the organization and all its data (type its name to confirm)",
      body: deleteOrganizationBody,
      response: { 200: billingMessage, ...errors },
    },
    handler: (req) => deleteOrganization(app, req, opts.payments.provider, req.body.confirm),
  });

  app.get("/api/public/:orgSlug/branding", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "An organization's name, logo and brand colour, for its portal, help center and widget",
      params: brandingParams,
      response: { 200: branding, 404: errorSchema },
    },
    handler: (req) => settings.branding(app.db, req.params.orgSlug),
  });

  app.get("/api/public/:orgSlug/logo", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "An organization's logo image",
      params: brandingParams,
      querystring: z.object({ v: z.string().max(40).optional() }),
      response: { 200: z.unknown().describe("The image (PNG, JPEG or WebP)"), 404: errorSchema },
    },
    handler: async (req, reply) => {
      const image = await settings.logo(app.db, req.params.orgSlug);
      // The URL carries the logo's version, so a cached copy is never out of date. The chat widget shows it on the
      // organization's own website and webmail shows it in customers' emails: other origins may load it.
      return reply
        .header("content-type", image.type)
        .header("cache-control", "public, max-age=86400")
        .header("cross-origin-resource-policy", "cross-origin")
        .send(image.bytes);
    },
  });
}
