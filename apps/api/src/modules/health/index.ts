// The health module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { healthRoutes } from "./health.routes.ts";
