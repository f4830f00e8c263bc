// The auth module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { authRoutes } from "./auth.routes.ts";
export { endUserSessions } from "./auth.service.ts";
export { hashPassword } from "./passwords.ts";
