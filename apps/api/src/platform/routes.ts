import { ERROR_STATUS, errorSchema } from "@cove/contract/errors.ts";
import type { RouteBody, RouteDef, RouteParams, RouteQuery, RouteReply } from "@cove/contract/routes.ts";
import type {
  FastifyContextConfig,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from "fastify";

/** The Fastify types of a table route's request and answer, from its schemas. */
interface RouteTypes<R extends RouteDef> {
  Params: RouteParams<R>;
  Querystring: RouteQuery<R>;
  Body: RouteBody<R>;
  Reply: RouteReply<R>;
}

export type TableRouteHandler<R extends RouteDef> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteTypes<R>
>;

/** What only the server knows of a route: its rate limit, whether it writes while read-only, its answer cache... */
export type RouteExtras = Omit<FastifyContextConfig, "access" | "actors">;

/**
 * The error statuses a route can answer, derived from its entry rather than listed by hand:
 * - 400 when it reads params, a query or a body (validation);
 * - 401 and 403 when it is signed in (no session; the wrong role, kind of caller, a read key, a second factor owed);
 * - 402 when it is signed in and writes, unless it still works while the organization is read-only, and when it is a
 *   public write to an organization (writesTo: a read-only organization takes no new portal tickets, chats...);
 * - 404 when it names something in its path or reads the organization's data (another tenant's record is not found);
 * - 429 when it is rate limited (its own limit, or an API key's per minute);
 * - the status of each of its own error codes (a name taken: 409; a file too large: 413...).
 * The shared hooks' statuses that every route meets (500, an idempotent repeat's 409/422...) are added to the
 * OpenAPI document for every route alike (platform/openapi.ts).
 */
export function errorStatuses(route: RouteDef, extras: RouteExtras = {}): number[] {
  const signedIn = route.access !== "public";
  const writes = route.method !== "GET";
  const statuses = new Set<number>();
  if (route.params || route.query || route.body) statuses.add(400);
  if (signedIn) statuses.add(401).add(403);
  if ((signedIn && writes && !extras.allowedWhenReadOnly) || extras.writesTo) statuses.add(402);
  if (route.params || signedIn) statuses.add(404);
  if (extras.rateLimit || route.actors?.includes("api_key")) statuses.add(429);
  for (const code of route.errors ?? []) statuses.add(ERROR_STATUS[code]);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * Registers a route of the contract's table: its method and path, its schemas (params, query, body, the success
 * answer and the derived error answers, each error checked as permissively as every route's: any code of the
 * contract), its access and actors, and what else the server configures for it. The handler is typed by the entry.
 */
export function addRoute<const R extends RouteDef>(
  app: FastifyInstance,
  route: R,
  opts: { config?: RouteExtras; handler: TableRouteHandler<R> },
): void {
  const errors = Object.fromEntries(errorStatuses(route, opts.config).map((status) => [status, errorSchema]));
  app.route<RouteTypes<R>>({
    method: route.method,
    url: route.path,
    config: {
      ...opts.config,
      access: route.access,
      ...(route.actors ? { actors: route.actors } : {}),
    },
    schema: {
      tags: [...route.tags],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: { ...route.answers, ...errors, ...(route.unavailable ? { 503: route.unavailable } : {}) },
    },
    handler: opts.handler,
  });
}
