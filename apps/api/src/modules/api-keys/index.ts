// The api-keys module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { apiKeyRoutes } from "./api-keys.routes.ts";

export { apiKeyName } from "./api-keys.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyRoutes);
}
