import { createHash } from "node:crypto";
import { IDEMPOTENCY_HOURS, IDEMPOTENCY_KEY_MAX } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { inRequest } from "./auth.ts";
import { type Db, type ExecuteSql, preparedRows, type Tx } from "./db.ts";
import { AppError } from "./errors.ts";
import type { JobQueue, Jobs } from "./jobs.ts";
import { type ApiKeyPrincipal, type Principal, withApiKey, withTenant } from "./tenancy.ts";

/**
 * Idempotent POSTs, as Stripe's API has them: a POST sent with an `Idempotency-Key` header by a member or an API key
 * claims the key before its handler runs, and its answer is stored when it is sent. The same request again (same
 * method, path and body) within 24 hours gets that answer back, with `Idempotent-Replayed: true`, and the work is done
 * once; the same key with another request is refused (422); a repeat that arrives while the first is still running is
 * told so (409) rather than doing the work twice. A 5xx answer is not kept: the claim is dropped, so a retry runs
 * again. A claim whose request never answered (its instance died mid-way) may be taken over after LOCK_SECONDS.
 *
 * The claim, the replay and the stored answer are written in the caller's own tenant transaction (row-level security
 * by organization), separate from the handler's: the claim commits before the work starts, which is what makes two
 * concurrent requests with one key do the work once.
 */

const HEADER = "idempotency-key";
const LOCK_SECONDS = 300;
/** Printable ASCII, as HTTP header values are in practice. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;

type Caller = Principal | ApiKeyPrincipal;

declare module "fastify" {
  interface FastifyRequest {
    /** The idempotency claim this request holds, to complete when it answers. */
    idempotency: { orgId: string; actor: string; key: string; caller: Caller } | null;
  }
}

interface Stored {
  requestHash: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
  locked: boolean;
}

/**
 * Runs fn in the request's own transaction (inRequest): the session or key is re-checked there, so a stored answer
 * replayed from it is sent on a checked session, as any answer is.
 */
function asRequest<T>(app: FastifyInstance, req: FastifyRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const admits = req.routeOptions.config.actors?.includes("api_key") ? "api_key" : "staff";
  return inRequest(app, req, admits, (ctx) => fn(ctx.db));
}

/**
 * Runs fn in the caller's tenant transaction once the answer is sent: storing it is the request's last step, and is
 * not refused by what the route itself just changed (a policy that now asks for a second factor).
 */
function asCaller<T>(db: Db, who: Caller, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (who.kind === "api_key") return withApiKey(db, who, (ctx) => fn(ctx.db));
  return withTenant(db, who, (ctx) => fn(ctx.db));
}

function requestHash(req: FastifyRequest): string {
  return createHash("sha256")
    .update(`${req.method} ${req.url}\n`)
    .update(JSON.stringify(req.body ?? null))
    .digest("hex");
}

function keyOf(req: FastifyRequest): string | null {
  const raw = req.headers[HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw.join(",") : raw;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !KEY_SHAPE.test(key)) {
    throw new AppError(
      "BAD_REQUEST",
      `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters without spaces.`,
    );
  }
  return key;
}

/** Claims the key, or answers what a repeat gets: the stored answer, or the reason it cannot have one. */
async function claim(
  app: FastifyInstance,
  req: FastifyRequest,
  who: Caller,
  key: string,
  hash: string,
): Promise<Stored | null> {
  const actor = who.kind === "api_key" ? `api_key:${who.keyId}` : `staff:${who.userId}`;
  const found = await asRequest(app, req, async (tx) => {
    const [claimed] = await preparedRows<{ ok: number }>(
      tx,
      sql`insert into idempotency_keys as k (organization_id, actor, key, request_hash, locked_until, expires_at)
          values (${who.orgId}::uuid, ${actor}, ${key}, ${hash},
                  now() + make_interval(secs => ${LOCK_SECONDS}), now() + make_interval(hours => ${IDEMPOTENCY_HOURS}))
          on conflict (organization_id, actor, key) do update
            set request_hash = excluded.request_hash, status = null, content_type = null, body = null,
                locked_until = excluded.locked_until, expires_at = excluded.expires_at, created_at = now()
            where k.expires_at < now() or (k.status is null and k.locked_until < now() and k.request_hash = excluded.request_hash)
          returning 1 as ok`,
    );
    if (claimed) return null;
    const [row] = await preparedRows<Stored>(
      tx,
      sql`select request_hash as "requestHash", status, content_type as "contentType", body,
                 locked_until > now() as locked
          from idempotency_keys
          where organization_id = ${who.orgId}::uuid and actor = ${actor} and key = ${key}`,
    );
    return row ?? null;
  });
  if (!found) req.idempotency = { orgId: who.orgId, actor, key, caller: who };
  return found;
}

async function replay(reply: FastifyReply, stored: Stored, hash: string): Promise<FastifyReply> {
  if (stored.requestHash !== hash) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used for a different request. Use a new key for a new request.",
    );
  }
  if (stored.status === null) {
    throw new AppError(
      "IDEMPOTENCY_IN_PROGRESS",
      "A request with this Idempotency-Key is still being processed. Try again in a moment.",
    );
  }
  reply.code(stored.status).header("idempotent-replayed", "true");
  if (stored.contentType) reply.header("content-type", stored.contentType);
  return reply.send(stored.body ?? "");
}

/** Stores the answer for repeats, or drops the claim when the answer is not one to repeat (a 5xx, a stream). */
async function complete(db: Db, req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const held = req.idempotency;
  if (!held) return;
  req.idempotency = null;
  const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : null;
  const keep = reply.statusCode < 500 && body !== null;
  const type = reply.getHeader("content-type");
  await asCaller(db, held.caller, (tx) =>
    keep
      ? preparedRows(
          tx,
          sql`update idempotency_keys set status = ${reply.statusCode}, content_type = ${typeof type === "string" ? type : null},
                     body = ${body}
              where organization_id = ${held.orgId}::uuid and actor = ${held.actor} and key = ${held.key}`,
        )
      : preparedRows(
          tx,
          sql`delete from idempotency_keys
              where organization_id = ${held.orgId}::uuid and actor = ${held.actor} and key = ${held.key}`,
        ),
  ).catch((err) => req.log.warn({ err }, "could not store the idempotent answer"));
}

function isJsonOrEmpty(req: FastifyRequest): boolean {
  const type = req.headers["content-type"];
  return type === undefined || /^application\/json\b/i.test(type);
}

/** After access control, so the caller is known; before the handler, so a repeat never reaches it. */
export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest("idempotency", null);
  app.addHook("preHandler", async (req, reply) => {
    if (req.method !== "POST") return;
    const who = req.principal;
    if (who?.kind !== "staff" && who?.kind !== "api_key") return;
    const key = keyOf(req);
    // JSON bodies only: a streamed upload's bytes are not in hand to compare, so its repeat could not be checked.
    if (key === null || !isJsonOrEmpty(req)) return;
    const hash = requestHash(req);
    const stored = await claim(app, req, who, key, hash);
    if (stored) return replay(reply, stored, hash);
  });
  app.addHook("onSend", async (req, reply, payload) => {
    if (req.idempotency) await complete(app.db, req, reply, payload);
    return payload;
  });
}

const PURGE_QUEUE: JobQueue<object> = {
  name: "idempotency-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** Deletes answers past their 24 hours, once a day (pg-boss runs the schedule once across instances). */
export function scheduleIdempotencyPurge(jobs: Jobs, executeSql: ExecuteSql): void {
  jobs.work(PURGE_QUEUE, async () => {
    await executeSql("DELETE FROM idempotency_keys WHERE expires_at < now()");
  });
  jobs.schedule(PURGE_QUEUE, "37 3 * * *");
}
