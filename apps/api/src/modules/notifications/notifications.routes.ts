import { notificationsApi } from "@cove/contract/notifications.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./notifications.service.ts";

/**
 * The bell (the contract's notificationsApi): each member reads and clears only their own notifications; new ones
 * arrive on the realtime socket.
 */
export async function notificationRoutes(app: FastifyInstance) {
  app.realtime.topic({
    name: "notifications",
    withArgument: false,
    authorize: async (principal) => (principal.kind === "staff" ? `notifications:${principal.userId}` : null),
  });
  app.realtime.route(["notification.created", "notification.read"], (event) => [
    { topic: `notifications:${event.data.user_id}`, kinds: ["staff"] },
  ]);

  addRoute(app, notificationsApi.list, { handler: (req) => inRequest(app, req, service.listNotifications) });

  addRoute(app, notificationsApi.markRead, {
    handler: (req) =>
      inRequest(app, req, async (ctx) => {
        await service.markRead(ctx, req.params.id);
        return { unread_count: await service.unreadCount(ctx) };
      }),
  });

  addRoute(app, notificationsApi.markAllRead, {
    handler: (req) =>
      inRequest(app, req, async (ctx) => {
        await service.markAllRead(ctx);
        return { unread_count: 0 };
      }),
  });
}
