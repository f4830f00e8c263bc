// The demo module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { demoRoutes } from "./demo.routes.ts";

export { findDemoOrganization } from "./demo.queries.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(demoRoutes);
}
