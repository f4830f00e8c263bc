import { CANNED_REPLIES_MAX, type CannedReply, type cannedReplyBody } from "@cove/contract/canned-replies.ts";
import { and, asc, count, eq } from "drizzle-orm";
import type { z } from "zod";
import { cannedReplies } from "../../db/schema/automation.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";

const columns = {
  id: cannedReplies.id,
  title: cannedReplies.title,
  body: cannedReplies.body,
  updatedAt: cannedReplies.updatedAt,
};
const toCanned = (r: { id: string; title: string; body: string; updatedAt: Date }): CannedReply => ({
  id: r.id,
  title: r.title,
  body: r.body,
  updated_at: r.updatedAt.toISOString(),
});
const mine = (ctx: Ctx, id: string) => and(eq(cannedReplies.organizationId, ctx.orgId), eq(cannedReplies.id, id));

/** The organization's canned replies by title: every member inserts them. */
export async function listCannedReplies(ctx: Ctx): Promise<CannedReply[]> {
  const rows = await ctx.db
    .select(columns)
    .from(cannedReplies)
    .where(eq(cannedReplies.organizationId, ctx.orgId))
    .orderBy(asc(cannedReplies.title), asc(cannedReplies.id));
  return rows.map(toCanned);
}

export async function createCannedReply(ctx: Ctx, input: z.output<typeof cannedReplyBody>): Promise<CannedReply> {
  const [n] = await ctx.db
    .select({ n: count() })
    .from(cannedReplies)
    .where(eq(cannedReplies.organizationId, ctx.orgId));
  if ((n?.n ?? 0) >= CANNED_REPLIES_MAX) {
    throw new AppError("BAD_REQUEST", `An organization can keep at most ${CANNED_REPLIES_MAX} canned replies.`);
  }
  const [row] = await ctx.db
    .insert(cannedReplies)
    .values({ organizationId: ctx.orgId, title: input.title, body: input.body })
    .returning(columns);
  if (!row) throw new Error("canned reply insert returned nothing");
  return toCanned(row);
}

export async function updateCannedReply(
  ctx: Ctx,
  id: string,
  input: z.output<typeof cannedReplyBody>,
): Promise<CannedReply> {
  const [row] = await ctx.db
    .update(cannedReplies)
    .set({ title: input.title, body: input.body, updatedAt: new Date() })
    .where(mine(ctx, id))
    .returning(columns);
  if (!row) throw notFound("Canned reply");
  return toCanned(row);
}

export async function deleteCannedReply(ctx: Ctx, id: string): Promise<void> {
  const [row] = await ctx.db.delete(cannedReplies).where(mine(ctx, id)).returning({ id: cannedReplies.id });
  if (!row) throw notFound("Canned reply");
}
