import { errorSchema } from "@cove/contract/errors.ts";
import { answerSchema, type RouteAnswer, type RouteDef, routePath } from "@cove/contract/routes.ts";
import { type ZodType, z } from "zod";
import { logApiFailure } from "./debug-log.ts";
import { clearSession, getSession, setSession } from "./session-storage.ts";

const API_BASE = "/api";

export interface ApiErrorDetail {
  path: string;
  message: string;
}

/** Every failed call ends up as one of these, so screens handle errors one way. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiErrorDetail[];
  /** True when `message` is the server's own human text (spec: show it, else the screen's fallback). */
  readonly fromServer: boolean;
  /** The id the server logged the request under (its answer's requestId or X-Request-Id), when it answered. */
  readonly requestId: string | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: ApiErrorDetail[];
    fromServer: boolean;
    requestId?: string | null;
  }) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.fromServer = init.fromServer;
    this.requestId = init.requestId ?? null;
  }
}

export interface ApiRequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** Every answer is checked against the contract before a screen sees it. */
  schema: ZodType<T>;
  signal?: AbortSignal;
  /** Sent without the session's token: a public page that must not act as the signed-in user (e.g. /ai-test). */
  anonymous?: boolean;
  /**
   * Sent with this bearer token instead of the staff session's: the customer portal's own session. A 401 for it is
   * the portal's to handle; it never ends the staff session.
   */
  token?: string;
}

async function readJson(response: Response): Promise<unknown> {
  // A connection dropped mid-body reads as an empty answer; the status code still says what happened.
  const text = await response.text().catch(() => "");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The organization now requires two-factor sign-in of this member, who has not set it up (turned on while they were
 * signed in): the stored user says so, and the auth gate takes them to the set-up.
 */
function requireEnrolment(token: string | undefined) {
  const session = getSession();
  if (!token || session?.token !== token || !session.user || session.user.twoFactorEnabled) return;
  if (session.user.twoFactorRequired) return;
  setSession({ ...session, user: { ...session.user, twoFactorRequired: true } });
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  try {
    return await send(path, options);
  } catch (error) {
    // The /debug page lists failed calls (a cancelled request is not an ApiError, and not a failure).
    if (error instanceof ApiError) {
      const { status, code, message } = error;
      logApiFailure({ method: options.method ?? "GET", path, status, code, message });
    }
    throw error;
  }
}

/**
 * What a call of a table route sends: its params (when its path has any), its query and its body, each as its schema
 * reads it (the schema's input: a query field may narrow or transform what it reads, as the audit log's action does).
 */
export type RouteInput<R extends RouteDef> = (R["params"] extends ZodType
  ? { params: z.input<R["params"]> }
  : { params?: undefined }) &
  (R["query"] extends ZodType
    ? { query?: { [K in keyof z.input<R["query"]>]?: z.input<R["query"]>[K] | undefined } }
    : { query?: undefined }) &
  (R["body"] extends ZodType ? { body: z.input<R["body"]> } : { body?: undefined });

type CallOptions<R extends RouteDef> = RouteInput<R> &
  Omit<ApiRequestOptions<RouteAnswer<R>>, "method" | "body" | "schema">;

/** A query's values in the address, in the order given; an absent value is left out, a list repeats its name. */
function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * Calls a route of the contract's table (packages/contract/src/routes.ts): its path from the template with each param
 * encoded, its method, and its answer checked against the route's own success schema. Every call of the web app goes
 * through here (scripts/check-boundaries.mjs, rule 9); apiRequest is its transport.
 */
export function callRoute<R extends RouteDef>(route: R, options: CallOptions<R>): Promise<RouteAnswer<R>> {
  const { params, query, body, ...rest } = options;
  const path = routePath(route, params).slice(API_BASE.length) + queryString(query);
  return apiRequest(path, { ...rest, method: route.method, body, schema: answerSchema(route) });
}

async function send<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const token = options.token ?? (options.anonymous ? undefined : getSession()?.token);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    // A cancelled request (the screen went away) is not a failure to report.
    if (options.signal?.aborted) throw cause;
    throw new ApiError({
      status: 0,
      code: "NETWORK_ERROR",
      message: "Cannot reach the server. Check your connection and try again.",
      fromServer: false,
    });
  }

  const data = await readJson(response);

  if (!response.ok) {
    // Only a rejected bearer token ends the session; a 401 for a wrong password at sign-in carries no token.
    if (response.status === 401 && token && getSession()?.token === token) clearSession();
    // Any code is read, not only the ones this build knows: during a rolling deploy a newer API may answer one.
    const parsed = errorSchema.extend({ code: z.string() }).safeParse(data);
    if (parsed.success && parsed.data.code === "TWO_FACTOR_ENROLMENT_REQUIRED") requireEnrolment(token);
    if (parsed.success) {
      throw new ApiError({
        status: response.status,
        code: parsed.data.code,
        message: parsed.data.error,
        details: parsed.data.details,
        fromServer: true,
        requestId: parsed.data.requestId ?? response.headers.get("x-request-id"),
      });
    }
    throw new ApiError({
      status: response.status,
      code: "HTTP_ERROR",
      message: `The server could not complete the request (HTTP ${response.status}).`,
      fromServer: false,
      requestId: response.headers.get("x-request-id"),
    });
  }

  const parsed = options.schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: "INVALID_RESPONSE",
      message: "The server sent an answer this version of the app does not understand. Reload the page.",
      fromServer: false,
    });
  }
  return parsed.data;
}

/** The server's human text when there is one, else the screen's fallback (docs/product.md, "Messages"). */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}
