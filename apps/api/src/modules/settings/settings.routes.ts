import { settingsApi } from "@cove/contract/settings.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import type { Payments } from "../billing/index.ts";
import { deleteOrganization } from "./delete-organization.service.ts";
import * as settings from "./settings.service.ts";

/** inboundDomain: INBOUND_DOMAIN, for the organization's inbound address in Email Settings (null: none). */
export async function settingsRoutes(app: FastifyInstance, opts: { payments: Payments; inboundDomain: string | null }) {
  addRoute(app, settingsApi.general, {
    handler: (req) => inRequest(app, req, (ctx) => settings.getGeneral(ctx, app.publicUrl)),
  });

  addRoute(app, settingsApi.updateGeneral, {
    handler: (req) => inRequest(app, req, (ctx) => settings.updateGeneral(ctx, req.body, app.publicUrl)),
  });

  addRoute(app, settingsApi.email, {
    handler: (req) => inRequest(app, req, (ctx) => settings.getEmail(ctx, opts.inboundDomain)),
  });

  addRoute(app, settingsApi.updateEmail, {
    handler: (req) => inRequest(app, req, (ctx) => settings.updateEmail(ctx, req.body, opts.inboundDomain)),
  });

  addRoute(app, settingsApi.deleteOrganization, {
    config: { allowedWhenReadOnly: true },
    handler: (req) => deleteOrganization(app, req, opts.payments.provider, req.body.confirm),
  });

  addRoute(app, settingsApi.branding, { handler: (req) => settings.branding(app.db, req.params.orgSlug) });

  addRoute(app, settingsApi.logo, {
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
