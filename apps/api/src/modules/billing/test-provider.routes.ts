import { testProviderApi } from "@cove/contract/test-provider.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import { customerOf, shiftOrganization } from "./billing.service.ts";
import { applyInvoice, applySubscription, fetchState, syncFromProvider, syncMark } from "./billing.sync.ts";
import type { TestProvider } from "./test.provider.ts";

/** The test payment form works while read-only (it is how one pays), and each call is rate limited. */
const config = { allowedWhenReadOnly: true, rateLimit: { max: 30, timeWindow: "1 minute" } } as const;

/**
 * The test provider's own calls, made by Cove's test payment form (PAYMENT_PROVIDER=test only): turn a test card into a
 * payment method, the extra confirmation step, and a clock that moves one organization's billing forward. Card
 * numbers are checked and dropped here; only brand, last 4 digits and expiry are kept (the contract's testProviderApi).
 */
export async function testProviderRoutes(app: FastifyInstance, opts: { test: TestProvider }) {
  const { test } = opts;

  addRoute(app, testProviderApi.createPaymentMethod, {
    config,
    handler: async (req) => {
      // The session is checked (as every signed-in route does) before the card goes to the provider.
      await inRequest(app, req, async () => undefined);
      return test.createPaymentMethod(req.body);
    },
  });

  addRoute(app, testProviderApi.confirmPayment, {
    config,
    handler: async (req) => {
      await inRequest(app, req, async () => undefined);
      await test.confirmPayment(req.body.client_secret, req.body.outcome);
      return { status: "succeeded" as const };
    },
  });

  addRoute(app, testProviderApi.advanceClock, {
    config,
    handler: async (req) => {
      const { days } = req.body;
      const { customerId, subscriptionId, mark } = await inRequest(app, req, async (ctx) => {
        await shiftOrganization(ctx, days);
        return { ...(await customerOf(ctx)), mark: await syncMark(ctx) };
      });
      if (customerId) await test.shiftCustomer(customerId, days);
      await test.renewDue();
      // Apply what the renewals did now, rather than when their webhooks arrive, so the next page load shows it.
      if (subscriptionId) {
        await syncFromProvider(
          (fn) => inRequest(app, req, fn),
          () => fetchState(test, subscriptionId),
          async (ctx, fresh) => {
            if (fresh.invoice) await applyInvoice(ctx, test.kind, fresh.invoice, fresh.subscription.status);
            await applySubscription(ctx, test.kind, fresh.subscription);
          },
          mark,
        );
      }
      return { message: `Your organization's billing moved ${days} day${days === 1 ? "" : "s"} ahead.` };
    },
  });
}
