// What the trial feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).

export { useTrialStatus } from "./api/trial.queries.ts";
export { TrialBanner } from "./components/trial-banner.tsx";
