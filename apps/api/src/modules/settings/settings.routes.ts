import { billingMessage } from "@cove/contract/billing.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  branding,
  brandingParams,
  deleteOrganizationBody,
  emailSettings,
  generalSettings,
  updateEmailBody,
  updateGeneralBody,
} from "@cove/contract/settings.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import type { Payments } from "../billing/index.ts";
import { deleteOrganization } from "./delete-organization.service.ts";
import * as settings from "./settings.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["settings"];
/** Settings and branding are for admins (docs/product.md, "Roles"). */
const admin = { access: "admin" } as const;

/** inboundDomain: INBOUND_DOMAIN, for the organization's inbound address in Email Settings (null: none). */
export async function settingsRoutes(
  fastify: FastifyInstance,
  opts: { payments: Payments; inboundDomain: string | null },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/settings/general", {
    config: admin,
    schema: {
      tags,
      summary: "Name, help center address, time zone, logo and brand colour",
      response: { 200: generalSettings, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => settings.getGeneral(ctx, app.publicUrl)),
  });

  app.put("/api/settings/general", {
    config: admin,
    schema: {
      tags,
      summary: "Change the name, help center address, time zone, logo (a data URL; null removes it) or brand colour",
      body: updateGeneralBody,
      response: { 200: generalSettings, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => settings.updateGeneral(ctx, req.body, app.publicUrl)),
  });

  app.get("/api/settings/email", {
    config: admin,
    schema: {
      tags,
      summary: "Sender name, reply-to address and signature of outgoing mail",
      response: { 200: emailSettings, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => settings.getEmail(ctx, opts.inboundDomain)),
  });

  app.put("/api/settings/email", {
    config: admin,
    schema: {
      tags,
      summary: "Change the email settings",
      body: updateEmailBody,
      response: { 200: emailSettings, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => settings.updateEmail(ctx, req.body, opts.inboundDomain)),
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
