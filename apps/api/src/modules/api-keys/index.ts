// The api-keys module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { apiKeyRoutes } from "./api-keys.routes.ts";
export { apiKeyName } from "./api-keys.service.ts";
