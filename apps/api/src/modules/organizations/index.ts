// The organizations module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { exportRoutes } from "./export.routes.ts";
import { organizationRoutes } from "./organizations.routes.ts";

export { eraseOrganization } from "./erase.ts";
export { dropContactExports, exportFile, latestExport, purgeExports, requestExport } from "./export.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof exportRoutes>[1]): Promise<void> {
  await app.register(exportRoutes, opts);
  await app.register(organizationRoutes);
}
