import { createHash, randomBytes } from "node:crypto";
import type { Role } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Db, preparedRows } from "./db.ts";
import { AppError } from "./errors.ts";
import { createSessionCache } from "./session-cache.ts";
import { type Ctx, type Principal, SESSION_ENDED, withTenant } from "./tenancy.ts";

export type Access = "public" | "authenticated" | "admin";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Every /api route states who may call it, so a public route is always a deliberate choice. */
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString("base64url");
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1] ?? null;
}

/**
 * Resolves a token's hash to its principal and the session's end. This runs before the organization is known, so it
 * reads as the owner role; it matches only on the token's hash and returns nothing else.
 */
async function resolveSession(db: Db, hash: string): Promise<{ principal: Principal; expiresAt: Date } | null> {
  const [row] = await preparedRows<{
    sessionId: string;
    userId: string;
    orgId: string;
    role: Role;
    expiresAt: Date | string;
  }>(
    db,
    sql`select s.id as "sessionId", u.id as "userId", u.organization_id as "orgId", u.role, s.expires_at as "expiresAt"
        from sessions s
        join users u on u.id = s.user_id
        join organizations o on o.id = s.organization_id
        where s.token_hash = ${hash} and s.expires_at > now() and u.status = 'active'
        limit 1`,
  );
  if (!row) return null;
  const { expiresAt, ...principal } = row;
  return { principal: { ...principal, verified: true }, expiresAt: new Date(expiresAt) };
}

export const sessionEnded = () => new AppError("UNAUTHORIZED", SESSION_ENDED);
export const adminsOnly = () => new AppError("FORBIDDEN", "Only an administrator can do this.");

export function registerAccessControl(app: FastifyInstance, db: Db): void {
  app.decorateRequest("principal", null);
  const cache = createSessionCache();

  /** The caller by token hash: from the cache when it was resolved lately, else from the database (and cached). */
  async function lookUp(hash: string, fresh: boolean): Promise<Principal | null> {
    const cached = fresh ? null : cache.get(hash);
    if (cached) return cached;
    const found = await resolveSession(db, hash);
    if (!found) {
      cache.delete(hash);
      return null;
    }
    cache.set(hash, found.principal, found.expiresAt);
    return found.principal;
  }

  app.addHook("onRoute", (route) => {
    const isDocs = route.url === "/api/docs" || route.url.startsWith("/api/docs/");
    const isApi = route.url.startsWith("/api/") && !isDocs;
    if (isApi && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} does not declare its access`);
    }
    // The OpenAPI document asks for a bearer token everywhere except on the deliberately public routes.
    if (route.config?.access === "public") route.schema = { ...route.schema, security: [] };
  });

  // Before validation: who is calling is settled first, so a signed-out caller learns nothing about the route's body,
  // and hooks that refuse by organization (billing's read-only mode) answer the same whatever the body is.
  app.addHook("preValidation", async (req) => {
    const access = req.routeOptions.config.access;
    if (!access || access === "public") return;
    const token = bearer(req);
    if (!token) throw sessionEnded();
    const hash = hashToken(token);
    let principal = await lookUp(hash, false);
    if (!principal) throw sessionEnded();
    // A cached role may be out of date in either direction: look again before refusing (a demotion is caught by
    // inTenant, which checks the role the transaction reads).
    if (access === "admin" && principal.role !== "admin" && !principal.verified) principal = await lookUp(hash, true);
    if (!principal) throw sessionEnded();
    if (access === "admin" && principal.role !== "admin") throw adminsOnly();
    req.principal = principal;
  });

  // A signed-in route must have had its session checked against the database by the time it answers: by the
  // lookup, or by a tenant transaction (withTenant). One that answered on the cache's word alone is a programming
  // error; it must not hand out data a revoked session could no longer see.
  app.addHook("onSend", async (req, reply, payload) => {
    const access = req.routeOptions.config?.access;
    if (access !== "authenticated" && access !== "admin") return payload;
    if (reply.statusCode >= 400 || !req.principal || req.principal.verified) return payload;
    req.log.error({ route: req.routeOptions.url }, "answered without checking the session");
    reply.code(500).header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({ error: "Something went wrong on our side. Please try again.", code: "INTERNAL_ERROR" });
  });
}

/**
 * For a public route that also serves staff: the principal of the bearer token when one is sent, else null. A token
 * that is sent but no longer valid is refused rather than ignored, so staff never silently get the public behaviour.
 */
export async function optionalPrincipal(app: FastifyInstance, req: FastifyRequest): Promise<Principal | null> {
  if (req.headers.authorization === undefined) return null;
  const token = bearer(req);
  const found = token ? await resolveSession(app.db, hashToken(token)) : null;
  if (!found) throw sessionEnded();
  return found.principal;
}

/** The signed-in principal of a route whose access is authenticated or admin. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw sessionEnded();
  return req.principal;
}

/**
 * Runs a service for the request's principal inside its tenant transaction, which re-checks the session; an admin
 * route is refused there too if the user is no longer an admin.
 */
export function inTenant<T>(app: FastifyInstance, req: FastifyRequest, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  const adminOnly = req.routeOptions.config.access === "admin";
  return withTenant(app.db, principalOf(req), (ctx) => {
    if (adminOnly && ctx.role !== "admin") throw adminsOnly();
    return fn(ctx);
  });
}

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
  }
}
