// The portal module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { portalRoutes } from "./portal.routes.ts";

export { resetDemoCustomer } from "./portal-demo.ts";
export { deleteSignInLinks } from "./portal-sign-in.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(portalRoutes);
}
