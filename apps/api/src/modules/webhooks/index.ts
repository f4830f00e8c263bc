// The webhooks module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { registerWebhooks, type WebhooksOptions } from "./webhooks.routes.ts";
