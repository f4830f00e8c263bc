import {
  NOTIFICATION_PAGE,
  type Notification,
  type NotificationListAnswer,
  type NotificationType,
} from "@cove/contract/notifications.ts";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { notifications } from "../../db/schema/notifications.ts";
import { notFound } from "../../platform/errors.ts";
import type { EventContext } from "../../platform/events.ts";
import { recordId } from "../../platform/ids.ts";
import type { Ctx } from "../../platform/tenancy.ts";

const mine = (ctx: Ctx) => and(eq(notifications.organizationId, ctx.orgId), eq(notifications.userId, ctx.userId));

/** The signed-in member's newest notifications and how many are unread. */
export async function listNotifications(ctx: Ctx): Promise<NotificationListAnswer> {
  const rows = await ctx.db
    .select({
      id: notifications.id,
      type: notifications.type,
      actorName: notifications.actorName,
      title: notifications.title,
      excerpt: notifications.excerpt,
      link: notifications.link,
      ticketId: notifications.ticketId,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(mine(ctx))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_PAGE);
  const unread = await unreadCount(ctx);
  return {
    notifications: rows.map(
      (r): Notification => ({
        id: r.id,
        type: r.type,
        actor_name: r.actorName,
        title: r.title,
        excerpt: r.excerpt,
        link: r.link,
        ticket_id: r.ticketId,
        read: r.readAt !== null,
        created_at: r.createdAt.toISOString(),
      }),
    ),
    unread_count: unread,
  };
}

export async function unreadCount(ctx: Ctx): Promise<number> {
  const [unread] = await ctx.db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(ctx), isNull(notifications.readAt)));
  return unread?.n ?? 0;
}

/** Marks one of the member's notifications read; any other id, malformed ones included, is not found. */
export async function markRead(ctx: Ctx, id: string): Promise<void> {
  recordId("Notification", id);
  const [row] = await ctx.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(mine(ctx), eq(notifications.id, id), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  if (!row) {
    // Already read is fine; someone else's (or nobody's) is not found.
    const [exists] = await ctx.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(mine(ctx), eq(notifications.id, id)));
    if (!exists) throw notFound("Notification");
    return;
  }
  await ctx.emit("notification.read", { user_id: ctx.userId });
}

export async function markAllRead(ctx: Ctx): Promise<void> {
  const changed = await ctx.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(mine(ctx), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  if (changed.length > 0) await ctx.emit("notification.read", { user_id: ctx.userId });
}

export interface NewNotification {
  userId: string;
  type: NotificationType;
  actorName: string;
  title: string;
  excerpt?: string;
  link: string;
  ticketId?: string | null;
}

/** Adds notifications in the transaction of what caused them, each announced to its member's own topic. */
export async function notify(ctx: Pick<EventContext, "orgId" | "db" | "emit">, list: NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  const rows = await ctx.db
    .insert(notifications)
    .values(
      list.map((n) => ({
        organizationId: ctx.orgId,
        userId: n.userId,
        type: n.type,
        actorName: n.actorName.slice(0, 200),
        title: n.title.slice(0, 300),
        excerpt: excerpt(n.excerpt ?? ""),
        link: n.link,
        ticketId: n.ticketId ?? null,
      })),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  for (const row of rows) await ctx.emit("notification.created", { notification_id: row.id, user_id: row.userId });
}

/** The first words of a text, on one line. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 140 ? line : `${line.slice(0, 139).trimEnd()}…`;
}
