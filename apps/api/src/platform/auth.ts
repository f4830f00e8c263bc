import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { organizations, sessions, users } from "../db/schema.ts";
import type { Db } from "./db.ts";
import { AppError } from "./errors.ts";
import { type Ctx, type Principal, withTenant } from "./tenancy.ts";

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
 * Resolves a bearer token to its principal. This runs before the organization is known, so it reads as the
 * owner role; it matches only on the token's hash and returns nothing else.
 */
async function resolveSession(db: Db, token: string): Promise<Principal | null> {
  // Every request runs this: named, so PostgreSQL plans it once per connection.
  const [row] = await db
    .select({ sessionId: sessions.id, userId: users.id, orgId: users.organizationId, role: users.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(organizations, eq(organizations.id, sessions.organizationId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("hash")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        eq(users.status, "active"),
      ),
    )
    .limit(1)
    .prepare("cove_resolve_session")
    .execute({ hash: hashToken(token), now: new Date() });
  return row ?? null;
}

export function registerAccessControl(app: FastifyInstance, db: Db): void {
  app.decorateRequest("principal", null);

  app.addHook("onRoute", (route) => {
    const isDocs = route.url === "/api/docs" || route.url.startsWith("/api/docs/");
    const isApi = route.url.startsWith("/api/") && !isDocs;
    if (isApi && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} does not declare its access`);
    }
    // The OpenAPI document asks for a bearer token everywhere except on the deliberately public routes.
    if (route.config?.access === "public") route.schema = { ...route.schema, security: [] };
  });

  app.addHook("preHandler", async (req) => {
    const access = req.routeOptions.config.access;
    if (!access || access === "public") return;
    const token = bearer(req);
    const principal = token ? await resolveSession(db, token) : null;
    if (!principal) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
    if (access === "admin" && principal.role !== "admin") {
      throw new AppError("FORBIDDEN", "Only an administrator can do this.");
    }
    req.principal = principal;
  });
}

/**
 * For a public route that also serves staff: the principal of the bearer token when one is sent, else null. A token
 * that is sent but no longer valid is refused rather than ignored, so staff never silently get the public behaviour.
 */
export async function optionalPrincipal(app: FastifyInstance, req: FastifyRequest): Promise<Principal | null> {
  if (req.headers.authorization === undefined) return null;
  const token = bearer(req);
  const principal = token ? await resolveSession(app.db, token) : null;
  if (!principal) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return principal;
}

/** The signed-in principal of a route whose access is authenticated or admin. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError("UNAUTHORIZED", "Your session has ended. Please sign in again.");
  return req.principal;
}

/** Runs a service for the request's principal inside its tenant transaction. */
export function inTenant<T>(app: FastifyInstance, req: FastifyRequest, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  return withTenant(app.db, principalOf(req), fn);
}

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
  }
}
