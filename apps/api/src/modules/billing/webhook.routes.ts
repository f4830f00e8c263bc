import { billingWebhookApi } from "@cove/contract/billing-account.ts";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../../platform/routes.ts";
import { handleWebhook } from "./billing.sync.ts";
import type { Payments } from "./payments.ts";

/**
 * The payment provider's webhook (the contract's billingWebhookApi). Its own plugin, because the signature is computed
 * over the exact bytes sent: this scope reads JSON bodies as raw bytes, which only the provider's verification parses.
 */
export async function webhookRoutes(app: FastifyInstance, opts: { payments: Payments }) {
  // This scope's own parser replaces the app's JSON one (platform/json-body.ts) for this route only.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  addRoute(app, billingWebhookApi.event, {
    config: { rateLimit: { max: 600, timeWindow: "1 minute" } },
    handler: async (req) => {
      // The entry declares no body schema: the body is what this scope's parser read, the raw bytes.
      const body: unknown = req.body;
      const raw = Buffer.isBuffer(body) ? body : Buffer.from("");
      return handleWebhook(app.db, opts.payments.provider, raw, req.headers);
    },
  });
}
