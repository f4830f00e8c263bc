// The auth module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { authRoutes } from "./auth.routes.ts";

export { endUserSessions } from "./auth.service.ts";
export { hashPassword } from "./passwords.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof authRoutes>[1]): Promise<void> {
  await app.register(authRoutes, opts);
}
