// The users module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { userRoutes } from "./users.routes.ts";
