// What the kb feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { SearchBox } from "./components/search-box.tsx";
