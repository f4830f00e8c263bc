// The portal module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).

export { portalRoutes } from "./portal.routes.ts";
export { resetDemoCustomer } from "./portal-demo.ts";
export { deleteSignInLinks } from "./portal-sign-in.service.ts";
