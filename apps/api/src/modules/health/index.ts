// The health module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { healthRoutes } from "./health.routes.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof healthRoutes>[1]): Promise<void> {
  await app.register(healthRoutes, opts);
}
