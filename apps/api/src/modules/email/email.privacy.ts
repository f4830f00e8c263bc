import { and, eq } from "drizzle-orm";
import { emailMessages } from "../../db/schema/email.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/**
 * Erasing a customer (modules/privacy), in the caller's transaction: the mail records sent to or received from their
 * address keep their place in the tickets' threads (and the delivery history), with the address replaced by
 * `placeholder` and the received copies (raw text, original HTML) dropped. Answers how many.
 */
export async function forgetMailAddress(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  email: string,
  placeholder: string,
): Promise<number> {
  const changed = await ctx.db
    .update(emailMessages)
    .set({ address: placeholder, raw: null, html: null, updatedAt: new Date() })
    .where(and(eq(emailMessages.organizationId, ctx.orgId), eq(emailMessages.address, email)))
    .returning({ id: emailMessages.id });
  return changed.length;
}
