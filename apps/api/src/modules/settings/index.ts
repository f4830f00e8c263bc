// The settings module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { settingsRoutes } from "./settings.routes.ts";
export {
  branding,
  brandOfOrganization,
  emailSettingsOf,
  type OrganizationBrand,
  readBrand,
} from "./settings.service.ts";
