// The billing module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { billingRoutes } from "./billing.routes.ts";
import { type LifecycleDeps, scheduleLifecycle } from "./lifecycle.ts";
import type { Payments } from "./payments.ts";
import { testProviderRoutes } from "./test-provider.routes.ts";
import { trialRoutes } from "./trial.routes.ts";
import { webhookRoutes } from "./webhook.routes.ts";

export { assertWritable, registerReadOnlyGuard } from "./access.ts";
export { subscriptionIdOf } from "./billing.service.ts";
export { assertTicketAllowed } from "./limits.ts";
export { createPayments, type Payments } from "./payments.ts";
export type { PaymentProvider } from "./provider.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(
  app: FastifyInstance,
  opts: { payments: Payments; lifecycle: Omit<LifecycleDeps, "test"> },
): Promise<void> {
  await app.register(trialRoutes, { payments: opts.payments });
  await app.register(billingRoutes, { payments: opts.payments });
  await app.register(webhookRoutes, { payments: opts.payments });
  const { test } = opts.payments;
  if (test) await app.register(testProviderRoutes, { test });
  scheduleLifecycle(app.jobs, { ...opts.lifecycle, test });
}
