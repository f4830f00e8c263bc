// The organizations module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { eraseOrganization } from "./erase.ts";
export { exportRoutes } from "./export.routes.ts";
export { dropContactExports, exportFile, latestExport, purgeExports, requestExport } from "./export.service.ts";
export { organizationRoutes } from "./organizations.routes.ts";
