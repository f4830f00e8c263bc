import { API_REQUESTS_PER_MINUTE, PLANS } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import { type Db, preparedRows } from "./db.ts";
import { AppError } from "./errors.ts";
import type { ApiKeyPrincipal } from "./tenancy.ts";

/**
 * The per-key request limit of the public API: a fixed one-minute window per key, counted in PostgreSQL so every
 * instance behind a load balancer shares it. One statement both counts this request and answers the count, so two
 * requests racing can never both read the last free slot.
 */
export async function countApiKeyRequest(db: Db, who: ApiKeyPrincipal, reply: FastifyReply): Promise<void> {
  const limit = API_REQUESTS_PER_MINUTE[who.plan];
  const [row] = await preparedRows<{ count: number; resetIn: number }>(
    db,
    sql`insert into api_key_rate_windows as w (organization_id, key_id, window_start, count)
        values (${who.orgId}::uuid, ${who.keyId}::uuid, date_trunc('minute', now()), 1)
        on conflict (organization_id, key_id) do update
          set count = case when w.window_start = excluded.window_start then w.count + 1 else 1 end,
              window_start = excluded.window_start
        returning count,
          ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as "resetIn"`,
  );
  const count = row?.count ?? 1;
  const resetIn = Math.max(1, row?.resetIn ?? 60);
  reply.header("RateLimit-Limit", limit);
  reply.header("RateLimit-Remaining", Math.max(0, limit - count));
  reply.header("RateLimit-Reset", resetIn);
  if (count > limit) {
    reply.header("Retry-After", resetIn);
    throw new AppError(
      "RATE_LIMITED",
      `This API key made more than ${limit} requests this minute (the ${PLANS[who.plan].name} plan's limit). Try again in ${resetIn} seconds.`,
    );
  }
}
