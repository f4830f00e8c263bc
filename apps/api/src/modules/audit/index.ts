// The audit module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { auditRoutes } from "./audit.routes.ts";
