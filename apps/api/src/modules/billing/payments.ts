import type { FastifyInstance } from "fastify";
import { now } from "../../platform/clock.ts";
import type { PaymentConfig } from "../../platform/config.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import type { PaymentProvider } from "./provider.ts";
import { createStripeProvider } from "./stripe.provider.ts";
import { createTestProvider, TEST_SIGNATURE_HEADER, type TestEvent, type TestProvider } from "./test.provider.ts";

export interface Payments {
  provider: PaymentProvider;
  /** The test provider's own calls (card form, confirmation step, clock); null with Stripe. */
  test: TestProvider | null;
}

/** The test provider's webhook deliveries: retried like a provider retries until Cove answers 2xx. */
const TEST_WEBHOOKS: JobQueue<{ body: string }> = {
  name: "test-provider-webhooks",
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  expireInSeconds: 60,
};

/**
 * The provider PAYMENT_PROVIDER chose. The test provider delivers its events to Cove's own webhook path through the
 * job queue, signed, as a real provider would over the network.
 */
export function createPayments(app: FastifyInstance, config: PaymentConfig): Payments {
  if (config.provider === "stripe") return { provider: createStripeProvider(config), test: null };
  const test = createTestProvider(app.db, (event: TestEvent) =>
    app.jobs.send(app.db, TEST_WEBHOOKS, { body: JSON.stringify(event) }),
  );
  app.jobs.work(TEST_WEBHOOKS, async ({ body }) => {
    const res = await app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json", [TEST_SIGNATURE_HEADER]: await test.signature(body, now()) },
      payload: body,
    });
    if (res.statusCode >= 300) throw new Error(`webhook answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  });
  return { provider: test, test };
}
