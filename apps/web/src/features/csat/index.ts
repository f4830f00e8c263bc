// What the csat feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { CsatCard } from "./components/csat-card.tsx";
