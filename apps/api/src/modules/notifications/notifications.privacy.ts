import { and, eq, inArray } from "drizzle-orm";
import { notifications } from "../../db/schema/notifications.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/**
 * Erasing a customer (modules/privacy), in the caller's transaction: the members' notifications about their chats
 * (which are deleted) go, and those about their tickets that name them as who acted name `anonymous` instead.
 */
export async function forgetCustomerInNotifications(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  customer: { name: string; ticketIds: string[]; chatIds: string[] },
  anonymous: string,
): Promise<void> {
  if (customer.chatIds.length > 0) {
    await ctx.db.delete(notifications).where(
      and(
        eq(notifications.organizationId, ctx.orgId),
        inArray(
          notifications.link,
          customer.chatIds.map((id) => `/chat?session=${id}`),
        ),
      ),
    );
  }
  if (customer.ticketIds.length > 0) {
    await ctx.db
      .update(notifications)
      .set({ actorName: anonymous })
      .where(
        and(
          eq(notifications.organizationId, ctx.orgId),
          inArray(notifications.ticketId, customer.ticketIds),
          eq(notifications.actorName, customer.name),
        ),
      );
  }
}
