// What the settings feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { useBranding } from "./api/settings.api.ts";
