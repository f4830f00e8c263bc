import { advanceClockBody, billingMessage } from "@cove/contract/billing.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { customerOf, shiftOrganization } from "./billing.service.ts";
import { applyInvoice, applySubscription, fetchState, lockForBilling } from "./billing.sync.ts";
import type { TestProvider } from "./test.provider.ts";

const errors = { 400: errorSchema, 401: errorSchema, 402: errorSchema, 403: errorSchema, 429: errorSchema };
const tags = ["test payments"];
const config = { access: "admin", allowedWhenReadOnly: true, rateLimit: { max: 30, timeWindow: "1 minute" } } as const;

const digits = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(max, `${label} is not valid`);

const cardBody = z.object({
  number: digits("Card number", 30),
  exp_month: z
    .number({ error: "Expiry month is required" })
    .int()
    .min(1, "Your card's expiration month is invalid.")
    .max(12, "Your card's expiration month is invalid."),
  exp_year: z.number({ error: "Expiry year is required" }).int().min(0).max(9999),
  cvc: digits("Security code", 4),
  name: z.string().trim().max(120).nullable().optional(),
  address: z
    .object({
      line1: z.string().trim().max(200).nullable().optional(),
      city: z.string().trim().max(100).nullable().optional(),
      postal_code: z.string().trim().max(20).nullable().optional(),
      country: z.string().trim().max(2).nullable().optional(),
    })
    .nullable()
    .optional(),
});
const cardAnswer = z.object({
  id: z.string(),
  card: z.object({ brand: z.string(), last4: z.string(), expMonth: z.number(), expYear: z.number() }),
});
const confirmBody = z.object({
  client_secret: z.string().min(10).max(200),
  outcome: z.enum(["complete", "fail"], { error: "Outcome must be complete or fail" }),
});

/**
 * The test provider's own calls, made by Cove's test payment form (PAYMENT_PROVIDER=test only): turn a test card into a
 * payment method, the extra confirmation step, and a clock that moves one organization's billing forward. Card
 * numbers are checked and dropped here; only brand, last 4 digits and expiry are kept.
 */
export async function testProviderRoutes(fastify: FastifyInstance, opts: { test: TestProvider }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { test } = opts;

  app.post("/api/test-provider/payment-methods", {
    config,
    schema: {
      tags,
      summary: "Create a payment method from a test card",
      body: cardBody,
      response: { 200: cardAnswer, ...errors },
    },
    handler: async (req) => {
      // The session is checked (as every signed-in route does) before the card goes to the provider.
      await inRequest(app, req, async () => undefined);
      return test.createPaymentMethod(req.body);
    },
  });

  app.post("/api/test-provider/confirm", {
    config,
    schema: {
      tags,
      summary: "Complete (or fail) the extra confirmation step a payment asked for",
      body: confirmBody,
      response: { 200: z.object({ status: z.literal("succeeded") }), ...errors },
    },
    handler: async (req) => {
      await inRequest(app, req, async () => undefined);
      await test.confirmPayment(req.body.client_secret, req.body.outcome);
      return { status: "succeeded" as const };
    },
  });

  app.post("/api/test-provider/clock/advance", {
    config,
    schema: {
      tags,
      summary: "Move this organization's billing forward by some days: trial end, renewals, grace, cancellation",
      body: advanceClockBody,
      response: { 200: billingMessage, ...errors },
    },
    handler: async (req) => {
      const { days } = req.body;
      const { customerId, subscriptionId } = await inRequest(app, req, async (ctx) => {
        await shiftOrganization(ctx, days);
        return customerOf(ctx);
      });
      if (customerId) await test.shiftCustomer(customerId, days);
      await test.renewDue();
      // Apply what the renewals did now, rather than when their webhooks arrive, so the next page load shows it.
      if (subscriptionId) {
        const fresh = await fetchState(test, subscriptionId);
        await inRequest(app, req, async (ctx) => {
          await lockForBilling(ctx);
          if (fresh.invoice) await applyInvoice(ctx, test.kind, fresh.invoice, fresh.subscription.status);
          await applySubscription(ctx, test.kind, fresh.subscription);
        });
      }
      return { message: `Your organization's billing moved ${days} day${days === 1 ? "" : "s"} ahead.` };
    },
  });
}
