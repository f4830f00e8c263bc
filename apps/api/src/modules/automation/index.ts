// The automation module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { automationRoutes } from "./automation.routes.ts";
export { businessHoursSaved, markForSlaRecompute, runSlaRecomputes } from "./sla.ts";
