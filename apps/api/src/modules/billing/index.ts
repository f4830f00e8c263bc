// The billing module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { assertWritable, registerReadOnlyGuard } from "./access.ts";
export { billingRoutes } from "./billing.routes.ts";
export { subscriptionIdOf } from "./billing.service.ts";
export { scheduleLifecycle } from "./lifecycle.ts";
export { assertTicketAllowed } from "./limits.ts";
export { createPayments, type Payments } from "./payments.ts";
export type { PaymentProvider } from "./provider.ts";
export { testProviderRoutes } from "./test-provider.routes.ts";
export { trialRoutes } from "./trial.routes.ts";
export { webhookRoutes } from "./webhook.routes.ts";
