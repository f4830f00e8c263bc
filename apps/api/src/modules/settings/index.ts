// The settings module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { settingsRoutes } from "./settings.routes.ts";

export {
  branding,
  brandOfOrganization,
  emailSettingsOf,
  type OrganizationBrand,
  readBrand,
} from "./settings.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof settingsRoutes>[1]): Promise<void> {
  await app.register(settingsRoutes, opts);
}
