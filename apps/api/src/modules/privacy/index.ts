// The privacy module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { privacyRoutes } from "./privacy.routes.ts";
export { customerExportFiles } from "./privacy.service.ts";
