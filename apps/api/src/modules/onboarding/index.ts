// The onboarding module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { onboardingRoutes } from "./onboarding.routes.ts";
