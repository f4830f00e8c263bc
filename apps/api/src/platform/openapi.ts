import { ERROR_STATUS, type ErrorCode } from "@cove/contract/errors.ts";
import type { RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/**
 * What the OpenAPI document (/api/docs) says beyond each route's own schema, derived from what every route already
 * declares (its access and the actors it admits) and from the hooks every request goes through, so it cannot drift:
 *
 * - who may call the operation: `security` (which kind of token) and `x-cove-access`, the callers by name: public,
 *   customer (a portal or chat visitor's token), member (any team member), admin, api_key:read (a key of either
 *   scope, on a read) and api_key:read_write;
 * - which error codes it can answer, per status, as an enum of the contract's codes (ERROR_STATUS): the statuses the
 *   route declares, and those the shared hooks add (validation 400, session 401, role 403, read-only 402, a key's
 *   rate limit 429, an idempotent repeat's 409 and 422, a body too large or not JSON 413/415, and 500).
 */

export const SECURITY_SCHEMES = {
  member: {
    type: "http",
    scheme: "bearer",
    description: "A team member's session token, from POST /api/auth/login or /api/auth/register.",
  },
  customer: {
    type: "http",
    scheme: "bearer",
    description: "A customer's token (ct.…): the help center portal's sign-in link, or the chat widget's visitor.",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (ck.…), made by an admin in Settings. A read key may only call GET; keys are limited per minute by plan.",
  },
} as const;

export type Caller = "public" | "customer" | "member" | "admin" | "api_key:read" | "api_key:read_write";

/** The callers a route admits, from its access and actors (platform/auth.ts enforces the same). */
export function callersOf(route: Pick<RouteOptions, "method" | "config">): Caller[] {
  const config = route.config as { access?: string; actors?: readonly string[] } | undefined;
  const access = config?.access;
  if (access === undefined || access === "public") return ["public"];
  if (access === "admin") return ["admin"];
  const actors = config?.actors ?? [];
  // Every route that admits customers is theirs alone: its handler refuses staff (portalCustomer, the chat's
  // visitor check), which the OpenAPI test confirms route by route.
  if (actors.includes("contact")) return ["customer"];
  const callers: Caller[] = ["member", "admin"];
  if (actors.includes("api_key")) callers.push(methodOf(route) === "GET" ? "api_key:read" : "api_key:read_write");
  return callers;
}

const methodOf = (route: Pick<RouteOptions, "method">) => [route.method].flat()[0]?.toUpperCase() ?? "GET";

const CALLER_WORDS: Record<Caller, string> = {
  public: "anyone (no token)",
  customer: "a customer",
  member: "any team member",
  admin: "an admin",
  "api_key:read": "an API key (read or read and write)",
  "api_key:read_write": "an API key with read and write access",
};

function securityOf(callers: readonly Caller[]): Record<string, string[]>[] {
  if (callers.includes("public")) return [];
  const schemes = new Set<string>();
  for (const caller of callers) {
    if (caller === "member" || caller === "admin") schemes.add("member");
    else if (caller === "customer") schemes.add("customer");
    else schemes.add("apiKey");
  }
  return [...schemes].map((name) => ({ [name]: [] }));
}

/** The statuses every request of this route can meet on the way through the shared hooks. */
function sharedStatuses(route: Pick<RouteOptions, "method" | "config">, callers: readonly Caller[]): number[] {
  const method = methodOf(route);
  const writes = method !== "GET" && method !== "HEAD";
  const statuses = [400, 500];
  if (!callers.includes("public")) statuses.push(401, 403);
  if (writes) statuses.push(413, 415);
  const config = route.config as { allowedWhenReadOnly?: boolean; writesTo?: unknown } | undefined;
  if (writes && !callers.includes("public") && !config?.allowedWhenReadOnly) statuses.push(402);
  else if (writes && config?.writesTo) statuses.push(402);
  if (callers.some((c) => c.startsWith("api_key"))) statuses.push(429);
  if (method === "POST" && callers.some((c) => c === "member" || c === "admin" || c.startsWith("api_key"))) {
    statuses.push(409, 422);
  }
  return statuses;
}

const codesWithStatus = (status: number) =>
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).filter(([, s]) => s === status).map(([code]) => code);

/** The error answer's schema with its code narrowed to the codes of that status. */
function errorAnswer(status: number, codes: ErrorCode[]) {
  return {
    description: `Error ${status}: the message says what went wrong, in words a person understands.`,
    type: "object",
    required: ["error", "code"],
    properties: {
      error: { type: "string" },
      code: { type: "string", enum: codes },
      details: {
        type: "array",
        items: {
          type: "object",
          required: ["path", "message"],
          properties: { path: { type: "string" }, message: { type: "string" } },
        },
      },
    },
  };
}

/**
 * OpenAPI 3.0 marks a value that may be null with nullable, but an enum still lists every value allowed: a nullable
 * enum must list null too, or a validator refuses the nulls the API sends. Fixed in place, all through a schema.
 */
function nullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableEnums(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const value of Object.values(schema)) nullableEnums(value);
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** @fastify/swagger's transform: the zod schemas as JSON Schema (jsonSchemaTransform), then the above. */
export function openApiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  if (!input.url.startsWith("/api/")) return out;
  const schema = out.schema as Record<string, unknown> & { response?: Record<string, unknown> };
  nullableEnums(schema);
  const callers = callersOf(input.route);
  const declared = Object.keys(schema.response ?? {})
    .map(Number)
    .filter((s) => s >= 400);
  const response: Record<string, unknown> = { ...schema.response };
  for (const status of new Set([...declared, ...sharedStatuses(input.route, callers)])) {
    const codes = codesWithStatus(status);
    if (codes.length > 0) response[status] = errorAnswer(status, codes);
  }
  const who = `Who may call: ${callers.map((c) => CALLER_WORDS[c]).join(", ")}.`;
  const description = typeof schema.description === "string" ? `${who}\n\n${schema.description}` : who;
  const documented: Record<string, unknown> = {
    ...schema,
    security: securityOf(callers),
    "x-cove-access": callers,
    description,
    response,
  };
  return { ...out, schema: documented };
}
