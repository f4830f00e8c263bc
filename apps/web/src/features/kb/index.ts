// What the kb feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).

export { useArticleList } from "./api/kb.queries.ts";
