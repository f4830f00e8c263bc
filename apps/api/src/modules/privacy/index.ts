// The privacy module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { privacyRoutes } from "./privacy.routes.ts";

export { customerExportFiles } from "./privacy.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof privacyRoutes>[1]): Promise<void> {
  await app.register(privacyRoutes, opts);
}
