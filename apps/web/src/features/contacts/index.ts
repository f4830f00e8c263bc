// What the contacts feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { CustomerPanel } from "./components/customer-panel.tsx";
