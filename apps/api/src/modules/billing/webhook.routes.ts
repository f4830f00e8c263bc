import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { handleWebhook } from "./billing.sync.ts";
import type { Payments } from "./payments.ts";

const webhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * The payment provider's webhook. Its own plugin, because the signature is computed over the exact bytes sent: this
 * scope reads JSON bodies as raw bytes, which only the provider's verification parses.
 */
export async function webhookRoutes(fastify: FastifyInstance, opts: { payments: Payments }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // This scope's own parser replaces the app's JSON one (platform/json-body.ts) for this route only.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  app.post("/api/billing/webhook", {
    config: { access: "public", rateLimit: { max: 600, timeWindow: "1 minute" } },
    schema: {
      tags: ["billing"],
      summary: "Payment provider events (signed): payment succeeded or failed, subscription updated or canceled",
      description:
        "The signature is checked (Stripe-Signature with Stripe, cove-test-signature with the test provider); a bad " +
        "one answers 400. An event delivered again is acknowledged and not applied twice.",
      response: { 200: webhookAnswer, 400: errorSchema, 502: errorSchema },
    },
    handler: async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.from("");
      return handleWebhook(app.db, opts.payments.provider, raw, req.headers);
    },
  });
}
