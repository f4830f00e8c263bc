import { type ZodType, z } from "zod";
import type { ErrorCode } from "./errors.ts";

/**
 * The route table: each API route once, here, as data both sides read. The API registers a route from its entry
 * (apps/api/src/platform/routes.ts: schemas, access, and the error answers derived from them); the web calls it
 * through the same entry (apps/web/src/lib/api-client.ts, callRoute), so no path is written twice and every answer is
 * checked against the schema the API answers with (docs/decisions/2026-11-30-route-table.md).
 */

export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type RouteAccess = "public" | "authenticated" | "admin";
/** The kinds of caller a signed-in route admits besides staff (who are admitted by every signed-in route). */
export type RouteActor = "contact" | "api_key";

type SuccessStatus = 200 | 201 | 202 | 204;

export interface RouteDef {
  method: RouteMethod;
  /** Fastify's form: `/api/kb/articles/:id`; each `:name` is a key of params. */
  path: `/api/${string}`;
  /** For the OpenAPI document. */
  summary: string;
  /** For the OpenAPI document, when the summary does not say enough (what a signature is checked against...). */
  description?: string;
  tags: readonly string[];
  access: RouteAccess;
  /** With access "authenticated": the other kinds of actor the route admits (none unless listed). */
  actors?: readonly RouteActor[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: ZodType;
  /** The answer by success status; a route has one. */
  answers: Partial<Record<SuccessStatus, ZodType>>;
  /**
   * The codes of the route's own failures beyond the ones every route shares (validation, session, role, not found,
   * read-only): a name taken (CONFLICT), a file too large (PAYLOAD_TOO_LARGE)... Their statuses are its error answers.
   */
  errors?: readonly ErrorCode[];
}

/** A route of the table, checked against RouteDef and kept with its exact types (params, query, body, answer). */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

/** The params of every route that names a record by id (`/:id`); any text, so a malformed id is a 404, not a 400. */
export const idParams = z.object({ id: z.string() });

type AnswerSchema<R extends RouteDef> = NonNullable<R["answers"][keyof R["answers"]]>;
/** What the route answers on success, as the caller reads it. */
export type RouteAnswer<R extends RouteDef> = z.output<AnswerSchema<R>>;
/** What the route's handler answers on success, before the answer's schema serializes it. */
export type RouteReply<R extends RouteDef> = z.input<AnswerSchema<R>>;
export type RouteParams<R extends RouteDef> = R["params"] extends ZodType ? z.output<R["params"]> : undefined;
export type RouteQuery<R extends RouteDef> = R["query"] extends ZodType ? z.output<R["query"]> : undefined;
export type RouteBody<R extends RouteDef> = R["body"] extends ZodType ? z.output<R["body"]> : undefined;

/** The route's one success status (201 for a creation, else 200). */
export function successStatus(route: RouteDef): SuccessStatus {
  const status = Object.keys(route.answers).map(Number)[0];
  return status === 201 || status === 202 || status === 204 ? status : 200;
}

/** The route's address with its params filled in, each encoded as one path segment. */
export function routePath(route: RouteDef, params: Readonly<Record<string, unknown>> | undefined): string {
  return route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The schema of the route's success answer, typed as what it answers. */
export function answerSchema<R extends RouteDef>(route: R): ZodType<RouteAnswer<R>> {
  const schema = route.answers[successStatus(route)];
  if (!schema) throw new Error(`${route.method} ${route.path} declares no answer`);
  // answers has one entry (RouteDef), so its schema is the one RouteAnswer reads.
  return schema as ZodType<RouteAnswer<R>>;
}
