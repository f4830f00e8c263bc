import { randomBytes } from "node:crypto";
import { PLANS, type PlanId } from "@cove/contract/constants.ts";
import { isUuid } from "@cove/contract/ids.ts";
import type { ApiKey, ApiKeyScope, CreateApiKeyAnswer, createApiKeyBody } from "@cove/contract/settings.ts";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { apiKeys } from "../../db/schema/api-keys.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import { API_KEY_PREFIX, hashToken } from "../../platform/auth.ts";
import { type Db, type Queryable, queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import type { Ctx } from "../../platform/tenancy.ts";

/** Keys an organization may have at once (revoked ones do not count). */
export const MAX_ACTIVE_KEYS = 20;
const PREFIX_LENGTH = 12;
/** last_used_at is written at most this often per key, so a busy key does not write on every request. */
const TOUCH_MS = 60_000;

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  scope: apiKeys.scope,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  firstName: users.firstName,
  lastName: users.lastName,
};

interface Listed {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  firstName: string | null;
  lastName: string | null;
}

const toApiKey = (r: Listed): ApiKey => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  created_at: r.createdAt.toISOString(),
  created_by: r.firstName !== null ? `${r.firstName} ${r.lastName ?? ""}`.trim() : null,
  last_used_at: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
  revoked_at: r.revokedAt ? r.revokedAt.toISOString() : null,
});

async function findKey(ctx: Ctx, id: string): Promise<ApiKey | null> {
  if (!isUuid(id)) return null;
  const [row] = await ctx.db
    .select(columns)
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.organizationId, ctx.orgId), eq(apiKeys.id, id)));
  return row ? toApiKey(row) : null;
}

export async function listApiKeys(ctx: Ctx): Promise<{ api_keys: ApiKey[] }> {
  const rows = await ctx.db
    .select(columns)
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.organizationId, ctx.orgId))
    .orderBy(desc(apiKeys.createdAt))
    .limit(200);
  return { api_keys: rows.map(toApiKey) };
}

/** Creates a key; its whole token is in this answer only, and only its sha256 is stored. */
export async function createApiKey(ctx: Ctx, input: z.output<typeof createApiKeyBody>): Promise<CreateApiKeyAnswer> {
  // The organization's row lock: the count of active keys holds until this one is in.
  const [org] = await queryRows<{ plan: keyof typeof PLANS; status: string }>(
    ctx.db,
    sql`select plan, subscription_status as status from organizations where id = ${ctx.orgId} for no key update`,
  );
  if (!org) throw notFound("Organization");
  if (org.plan === "starter") {
    throw new AppError(
      "PLAN_FEATURE",
      `The ${PLANS.starter.name} plan does not include API access. Upgrade to Growth or Business on the Billing page to create API keys.`,
    );
  }
  const [active] = await ctx.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, ctx.orgId), isNull(apiKeys.revokedAt)));
  if ((active?.n ?? 0) >= MAX_ACTIVE_KEYS) {
    throw new AppError(
      "CONFLICT",
      `Your organization has ${MAX_ACTIVE_KEYS} active API keys: revoke one before creating another.`,
    );
  }
  const token = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  const [created] = await ctx.db
    .insert(apiKeys)
    .values({
      organizationId: ctx.orgId,
      name: input.name,
      scope: input.scope,
      tokenHash: hashToken(token),
      prefix: token.slice(0, PREFIX_LENGTH),
      createdBy: ctx.userId,
    })
    .returning({ id: apiKeys.id });
  const key = created ? await findKey(ctx, created.id) : null;
  if (!key) throw new Error("api key insert returned nothing");
  await audit(ctx, "api_key.created", { type: "api_key", id: key.id, label: key.name }, { scope: key.scope });
  return { api_key: key, token };
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<{ api_key: ApiKey }> {
  recordId("API key", id);
  const revoked = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.organizationId, ctx.orgId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  const key = await findKey(ctx, id);
  if (!key) throw notFound("API key");
  // Revoking a revoked key again changes nothing, and records nothing.
  if (revoked.length > 0) await audit(ctx, "api_key.revoked", { type: "api_key", id: key.id, label: key.name });
  return { api_key: key };
}

/**
 * For the request seam that authenticates API keys: the key behind a token's sha256, or null when there is none, it
 * was revoked, or the organization's plan has no API access (Starter). It runs before any organization is known, as
 * the owner role, and matches on the hash alone. It also notes when the key was last used (at most once a minute).
 */
export async function findApiKeyByHash(
  db: Db,
  hash: string,
): Promise<{ id: string; orgId: string; scope: ApiKeyScope; plan: PlanId } | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.organizationId,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
      plan: organizations.plan,
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(and(eq(apiKeys.tokenHash, hash), isNull(apiKeys.revokedAt)));
  if (!row || row.plan === "starter") return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_MS) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  return { id: row.id, orgId: row.orgId, scope: row.scope, plan: row.plan };
}

/** A key's name, for the activity of what it did (null when the organization has no such key). */
export async function apiKeyName(db: Queryable, orgId: string, id: string): Promise<string | null> {
  const [row] = await db
    .select({ name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, orgId), eq(apiKeys.id, id)));
  return row?.name ?? null;
}
