// The demo module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { findDemoOrganization } from "./demo.queries.ts";
export { demoRoutes } from "./demo.routes.ts";
