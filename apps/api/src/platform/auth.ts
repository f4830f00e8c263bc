import { createHash, randomBytes } from "node:crypto";
import type { Role } from "@cove/contract/constants.ts";
import type { ContactSessionKind } from "@cove/contract/contacts.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { countApiKeyRequest } from "./api-rate.ts";
import { type Db, preparedRows } from "./db.ts";
import { AppError } from "./errors.ts";
import { createSessionCache } from "./session-cache.ts";
import {
  type AnyPrincipal,
  type ContactCtx,
  type ContactPrincipal,
  type Ctx,
  enrolmentRequiredSql,
  type OneRead,
  type Principal,
  type Reader,
  readAsTenant,
  readWithApiKey,
  SESSION_ENDED,
  type TenantCtx,
  withApiKey,
  withContact,
  withTenant,
} from "./tenancy.ts";

export type Access = "public" | "authenticated" | "admin";
/** The kinds of caller a signed-in route admits besides staff (who are admitted by every signed-in route). */
export type GuestActor = "contact" | "api_key";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Every /api route states who may call it, so a public route is always a deliberate choice. */
    access?: Access;
    /**
     * With access "authenticated": the other kinds of actor the route admits (none unless listed: a contact's or an
     * API key's token on a staff route is refused). Its handler then reads req.principal, which may be of any kind.
     */
    actors?: readonly GuestActor[];
    /**
     * A signed-in route a member may use before they set up the second factor their organization requires of them
     * (setting it up, who am I, signing out). Every other route answers them TWO_FACTOR_ENROLMENT_REQUIRED.
     */
    duringEnrolment?: boolean;
  }
  interface FastifyRequest {
    principal: AnyPrincipal | null;
  }
}

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString("base64url");
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Tokens of actors other than staff start with a prefix that a staff token (base64url, no dots) cannot have, so one
 * look at the token says which table holds its hash.
 */
export const CONTACT_TOKEN_PREFIX = "ct.";
export const API_KEY_PREFIX = "ck.";
export const newContactToken = () => `${CONTACT_TOKEN_PREFIX}${newToken()}`;

const BEARER = /^Bearer\s+([A-Za-z0-9_.-]{20,200})$/;

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

interface Resolved {
  principal: AnyPrincipal;
  /** How long the answer may be reused; null: look it up every time. */
  expiresAt: Date | null;
}

/** Resolves a token's hash of one kind to its principal, or null when it is unknown, expired or revoked. */
export type TokenResolver = (db: Db, hash: string) => Promise<Resolved | null>;

/**
 * A staff session by its token's hash. This runs before the organization is known, so it reads as the owner role; it
 * matches only on the token's hash and returns nothing else.
 */
const resolveStaff: TokenResolver = async (db, hash) => {
  const [row] = await preparedRows<{
    sessionId: string;
    userId: string;
    orgId: string;
    role: Role;
    expiresAt: Date | string;
    enrolmentRequired: boolean;
  }>(
    db,
    sql`select s.id as "sessionId", u.id as "userId", u.organization_id as "orgId", u.role, s.expires_at as "expiresAt",
               ${enrolmentRequiredSql} as "enrolmentRequired"
        from sessions s
        join users u on u.id = s.user_id
        join organizations o on o.id = s.organization_id
        where s.token_hash = ${hash} and s.expires_at > now() and u.status = 'active'
        limit 1`,
  );
  if (!row) return null;
  const { expiresAt, ...rest } = row;
  return { principal: { kind: "staff", ...rest }, expiresAt: new Date(expiresAt) };
};

/** A contact's session (portal sign-in or chat visitor) by its token's hash, read the same way. */
const resolveContact: TokenResolver = async (db, hash) => {
  const [row] = await preparedRows<{
    sessionId: string;
    contactId: string;
    orgId: string;
    sessionKind: ContactSessionKind;
  }>(
    db,
    sql`select s.id as "sessionId", s.contact_id as "contactId", s.organization_id as "orgId", s.kind as "sessionKind"
        from contact_sessions s
        where s.token_hash = ${hash} and s.expires_at > now()
        limit 1`,
  );
  if (!row) return null;
  return { principal: { kind: "contact", ...row }, expiresAt: null };
};

/** Who a token stands for, and whether that was read from the database just now (fresh) or from the session cache. */
export interface Authenticated {
  principal: AnyPrincipal;
  fresh: boolean;
}

/**
 * The one way a bearer token becomes an actor, for HTTP routes and the realtime socket alike. Staff sessions are kept
 * for up to a minute in a cache (every tenant transaction re-checks them); other kinds are looked up each time.
 */
export interface Authenticator {
  authenticate(token: string, opts?: { fresh?: boolean }): Promise<Authenticated | null>;
  /** Adds the resolver of tokens that start with prefix (e.g. API keys, registered by the module that issues them). */
  register(prefix: string, resolver: TokenResolver): void;
  /** Records that a staff session was used now: written at most once a minute per session (its "last activity"). */
  touch(sessionId: string): Promise<void>;
}

/** How often a session's last activity is written. */
const TOUCH_EVERY_MS = 60_000;
const TOUCHED_MAX = 20_000;

export function createAuthenticator(db: Db): Authenticator {
  const cache = createSessionCache();
  const resolvers = new Map<string, TokenResolver>([[CONTACT_TOKEN_PREFIX, resolveContact]]);
  // When this instance last wrote each session's last activity; the statement's own condition keeps several
  // instances to about one write a minute between them.
  const touched = new Map<string, number>();

  return {
    async authenticate(token, { fresh = false } = {}) {
      const dot = token.indexOf(".");
      const resolver = dot === -1 ? resolveStaff : resolvers.get(token.slice(0, dot + 1));
      if (!resolver) return null;
      const hash = hashToken(token);
      if (resolver !== resolveStaff) {
        const found = await resolver(db, hash);
        return found ? { principal: found.principal, fresh: true } : null;
      }
      const cached = fresh ? null : cache.get(hash);
      if (cached) return { principal: cached, fresh: false };
      const found = await resolver(db, hash);
      if (found?.principal.kind !== "staff") {
        cache.delete(hash);
        return null;
      }
      cache.set(hash, found.principal, found.expiresAt ?? new Date());
      return { principal: found.principal, fresh: true };
    },
    register(prefix, resolver) {
      if (!prefix.endsWith(".") || prefix.slice(0, -1).includes(".")) throw new Error(`Bad token prefix ${prefix}`);
      resolvers.set(prefix, resolver);
    },
    async touch(sessionId) {
      const now = Date.now();
      if (now - (touched.get(sessionId) ?? 0) < TOUCH_EVERY_MS) return;
      if (touched.size >= TOUCHED_MAX) touched.clear();
      touched.set(sessionId, now);
      await preparedRows(
        db,
        sql`update sessions set last_seen_at = now()
            where id = ${sessionId}::uuid and (last_seen_at is null or last_seen_at < now() - interval '1 minute')`,
      );
    },
  };
}

export const enrolmentRequired = () =>
  new AppError(
    "TWO_FACTOR_ENROLMENT_REQUIRED",
    "Your organization requires two-factor sign-in. Set it up to continue.",
  );

export const sessionEnded = () => new AppError("UNAUTHORIZED", SESSION_ENDED);
export const adminsOnly = () => new AppError("FORBIDDEN", "Only an administrator can do this.");

export const customersOnly = () =>
  new AppError("FORBIDDEN", "This is only for customers signed in to the portal or chatting with the team.");

export const staffOnly = () => new AppError("FORBIDDEN", "This is only for your support team's staff.");

const portalOnly = () => new AppError("FORBIDDEN", "This is only for customers signed in to the portal.");

/**
 * The requests whose session (or key) was read from the database while they ran: by the token's lookup, by their
 * transaction (inRequest), or by the answer cache's check. A signed-in route answers only for these (the onSend hook
 * below). Kept beside the request rather than in the principal, which is a value shared with the session cache.
 */
const checkedRequests = new WeakSet<FastifyRequest>();

/**
 * Records that the request's session was checked against the database just now. Only what did check it calls this:
 * the access control below, inRequest, and the answer cache (platform/answer-cache.ts).
 */
export function recordSessionChecked(req: FastifyRequest): void {
  checkedRequests.add(req);
}

export function registerAccessControl(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest("principal", null);
  app.decorate("authenticator", authenticator);

  app.addHook("onRoute", (route) => {
    const isDocs = route.url === "/api/docs" || route.url.startsWith("/api/docs/");
    const isApi = route.url.startsWith("/api/") && !isDocs;
    if (isApi && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} does not declare its access`);
    }
    if (route.config?.actors?.length && route.config.access !== "authenticated") {
      throw new Error(`Route ${route.method} ${route.url}: only an authenticated route admits other actors`);
    }
  });

  // Access control runs first, on the request line and headers alone: a caller who may not use a route learns
  // nothing about its body's rules (a 401 comes before any 400), and an anonymous body is never even parsed.
  app.addHook("onRequest", async (req, reply) => {
    const { access, actors = [] } = req.routeOptions.config ?? {};
    if (!access || access === "public") return;
    const token = bearerToken(req.headers.authorization);
    if (!token) throw sessionEnded();
    let found = await authenticator.authenticate(token);
    if (!found) throw sessionEnded();
    let principal: AnyPrincipal | undefined = found.principal;
    // A route that admits customers is theirs alone: staff are refused here, before its body is even read.
    if (principal.kind === "staff" && actors.includes("contact")) throw customersOnly();
    if (principal.kind !== "staff") {
      if (!actors.includes(principal.kind)) throw staffOnly();
      if (principal.kind === "api_key") await countApiKeyRequest(app.db, principal, reply);
      if (principal.kind === "api_key" && principal.scope === "read" && req.method !== "GET") {
        throw new AppError(
          "FORBIDDEN",
          "This API key can only read. Create a key with read and write access to change data.",
        );
      }
      req.principal = principal;
      recordSessionChecked(req);
      return;
    }
    // A cached role may be out of date in either direction: look again before refusing (a demotion is caught by
    // inRequest, which checks the role the transaction reads).
    if (access === "admin" && principal.role !== "admin" && !found?.fresh) {
      found = await authenticator.authenticate(token, { fresh: true });
      principal = found?.principal;
    }
    // The same for enrolment: a cached "must enrol" may be out of date (they just did), so look again first.
    if (principal?.kind === "staff" && principal.enrolmentRequired && !found?.fresh) {
      found = await authenticator.authenticate(token, { fresh: true });
      principal = found?.principal;
    }
    if (principal?.kind !== "staff") throw sessionEnded();
    if (principal.enrolmentRequired && !req.routeOptions.config?.duringEnrolment) throw enrolmentRequired();
    if (access === "admin" && principal.role !== "admin") throw adminsOnly();
    req.principal = principal;
    if (found?.fresh) recordSessionChecked(req);
    await authenticator.touch(principal.sessionId);
  });

  // A signed-in route must have had its session checked against the database by the time it answers: by the
  // lookup, or by its transaction (inRequest). One that answered on the cache's word alone is a programming error; it
  // must not hand out data a revoked session could no longer see.
  app.addHook("onSend", async (req, reply, payload) => {
    const access = req.routeOptions.config?.access;
    if (access !== "authenticated" && access !== "admin") return payload;
    if (reply.statusCode >= 400 || !req.principal || checkedRequests.has(req)) return payload;
    req.log.error({ route: req.routeOptions.url }, "answered without checking the session");
    reply.code(500).header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({
      error: "Something went wrong on our side. Please try again.",
      code: "INTERNAL_ERROR",
      requestId: req.id,
    });
  });
}

/**
 * For a public route that also serves staff: the principal of the bearer token when one is sent, else null. A token
 * that is sent but no longer valid is refused rather than ignored, so staff never silently get the public behaviour.
 */
export async function optionalPrincipal(app: FastifyInstance, req: FastifyRequest): Promise<Principal | null> {
  if (req.headers.authorization === undefined) return null;
  const token = bearerToken(req.headers.authorization);
  const found = token ? (await app.authenticator.authenticate(token, { fresh: true }))?.principal : null;
  if (!found) throw sessionEnded();
  if (found.kind !== "staff") throw staffOnly();
  return found;
}

/**
 * Whom a route's work is for, as the route admits them (its config's actors), and so what its transaction hands the
 * service:
 * - "staff" (the default): a member; Ctx, with their current role.
 * - "api_key": a member or one of the organization's API keys (actors: ["api_key"]); the TenantCtx both share.
 * - "customer": a contact signed in to the portal (actors: ["contact"]); a chat visitor's token is refused.
 * - "contact": any contact session, the widget's visitors included (actors: ["contact"]).
 */
export type Admits = "staff" | "api_key" | "customer" | "contact";
export type CtxFor<A extends Admits> = A extends "staff" ? Ctx : A extends "api_key" ? TenantCtx : ContactCtx;

/** A request's way into its transaction, for a service that runs more than one: (fn) => inRequest(app, req, fn). */
export type RequestTx<C> = <T>(fn: (ctx: C) => Promise<T>) => Promise<T>;

/**
 * The one way a request gets into its organization's data: runs fn in the confined transaction of the principal the
 * route admitted (withTenant for a member, withApiKey for a key, withContact for a contact), which checks the session
 * or key again in the statement that confines it, and records the request as checked. For a member it also applies
 * what the transaction read: a second factor to set up first (unless the route serves enrolment) and, on an admin
 * route, the admin role as it is now.
 *
 * admits says whom the route admits (see Admits); it must agree with the route's config, so the context fn is typed
 * for is the one it gets. A disagreement is a programming error (a 500 on the route's first call in any test).
 */
export function inRequest<T>(app: FastifyInstance, req: FastifyRequest, fn: (ctx: Ctx) => Promise<T>): Promise<T>;
export function inRequest<A extends Admits, T>(
  app: FastifyInstance,
  req: FastifyRequest,
  admits: A,
  fn: (ctx: CtxFor<A>) => Promise<T>,
): Promise<T>;
export function inRequest<T>(
  app: FastifyInstance,
  req: FastifyRequest,
  ...args: [fn: (ctx: Ctx) => Promise<T>] | [admits: Admits, fn: (ctx: never) => Promise<T>]
): Promise<T> {
  const [admits, fn] = args.length === 1 ? (["staff", args[0]] as const) : args;
  const config = checkAdmits(req, admits);
  const run = fn as (ctx: TenantCtx) => Promise<T>;
  const who = req.principal;
  if (!who) throw sessionEnded();
  if (who.kind === "api_key") {
    if (admits !== "api_key") throw staffOnly();
    return withApiKey(app.db, who, (ctx) => {
      recordSessionChecked(req);
      return run(ctx);
    });
  }
  if (who.kind === "contact") {
    if (admits === "staff" || admits === "api_key") throw staffOnly();
    // A chat visitor's token reaches its own chat only, not the portal (it never proved an email).
    if (admits === "customer" && who.sessionKind === "visitor") throw portalOnly();
    return withContact(app.db, who, (ctx) => {
      recordSessionChecked(req);
      return run(ctx);
    });
  }
  if (admits === "customer" || admits === "contact") throw customersOnly();
  return withTenant(app.db, who, (ctx) => {
    recordSessionChecked(req);
    checkMember(config, ctx.role, ctx.enrolmentRequired);
    return run(ctx);
  });
}

/** The route's config, once admits is found to agree with it (inRequest); a disagreement is a programming error. */
function checkAdmits(req: FastifyRequest, admits: Admits) {
  const config = req.routeOptions.config;
  const actors = config.actors ?? [];
  const guest = admits === "staff" ? null : admits === "api_key" ? "api_key" : "contact";
  if (guest ? !actors.includes(guest) : actors.length > 0) {
    throw new Error(
      `${req.method} ${req.routeOptions.url} admits ${actors.join(", ") || "staff only"}: not "${admits}"`,
    );
  }
  return config;
}

/**
 * What a member's transaction read of them, applied to the route: a second factor to set up first (unless the route
 * serves enrolment), and on an admin route the admin role as it is now. The transaction read the session again, so a
 * policy turned on or a role changed since the session was cached applies at once.
 */
function checkMember(config: FastifyRequest["routeOptions"]["config"], role: Role, enrol: boolean) {
  if (enrol && !config.duringEnrolment) throw enrolmentRequired();
  if (config.access === "admin" && role !== "admin") throw adminsOnly();
}

/**
 * inRequest for a route whose whole work is one read (a page of the ticket list, a ticket's detail, the overview):
 * readOf builds it from who asks, before the transaction, and on PostgreSQL it goes in the same round trip as the
 * transaction's BEGIN, its confining statement and its COMMIT (readAsTenant, readWithApiKey). Its rows become the
 * answer only after the checks inRequest makes: the session or key still counts, a second factor to set up first,
 * the admin role as it is now.
 */
export async function readInRequest<R, T>(
  app: FastifyInstance,
  req: FastifyRequest,
  admits: "staff" | "api_key",
  readOf: (reader: Reader) => OneRead<R, T>,
): Promise<T> {
  const config = checkAdmits(req, admits);
  const who = req.principal;
  if (!who) throw sessionEnded();
  if (who.kind === "api_key") {
    if (admits !== "api_key") throw staffOnly();
    const read = readOf({ orgId: who.orgId, actor: { kind: "api_key", id: who.keyId } });
    const rows = await readWithApiKey(app.db, who, read);
    recordSessionChecked(req);
    return read.answer(rows);
  }
  if (who.kind === "contact") throw staffOnly();
  const read = readOf({ orgId: who.orgId, actor: { kind: "staff", id: who.userId } });
  const { rows, role, enrolmentRequired: enrol } = await readAsTenant(app.db, who, read);
  recordSessionChecked(req);
  checkMember(config, role, enrol);
  return read.answer(rows);
}

/** The signed-in staff member of a route whose access is authenticated or admin (their claims; no transaction). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw sessionEnded();
  if (req.principal.kind !== "staff") throw staffOnly();
  return req.principal;
}

/** The request's portal customer; staff (who pass every signed-in route's check) and chat visitors get a 403. */
export function portalCustomer(req: FastifyRequest): ContactPrincipal {
  const who = req.principal;
  if (!who) throw sessionEnded();
  // A chat visitor's token reaches its own chat only, not the portal (it never proved an email).
  if (who.kind !== "contact" || who.sessionKind === "visitor") throw portalOnly();
  return who;
}

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    authenticator: Authenticator;
  }
}
