import { isUuid } from "@cove/contract/ids.ts";
import { notFound } from "./errors.ts";

/**
 * The params of every route that names a record by id (`/:id`): any text, of any length the router lets through, so
 * that a malformed id is not a validation error (400) but reaches the route and is simply not found, like an id of
 * another organization's record or of nothing at all (docs/product.md: another tenant's record answers 404). Past the
 * router's limit the same 404 comes from platform/errors.ts (frameworkError).
 */
export { idParams } from "@cove/contract/routes.ts";

/** The id a route was called with, or "<what> not found" (404) for anything that cannot be one. */
export function recordId(what: string, id: string): string {
  if (!isUuid(id)) throw notFound(what);
  return id;
}
