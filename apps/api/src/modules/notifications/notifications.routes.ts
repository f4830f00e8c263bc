import { errorSchema } from "@cove/contract/errors.ts";
import { notificationListAnswer, notificationParams, unreadCountAnswer } from "@cove/contract/notifications.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import * as service from "./notifications.service.ts";

const errors = { 401: errorSchema, 404: errorSchema };
const tags = ["notifications"];

/** The bell: each member reads and clears only their own notifications; new ones arrive on the realtime socket. */
export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const access = "authenticated" as const;

  app.realtime.topic({
    name: "notifications",
    withArgument: false,
    authorize: async (principal) => (principal.kind === "staff" ? `notifications:${principal.userId}` : null),
  });
  app.realtime.route(["notification.created", "notification.read"], (event) => [
    { topic: `notifications:${event.data.user_id}`, kinds: ["staff"] },
  ]);

  app.get("/api/notifications", {
    config: { access },
    schema: {
      tags,
      summary: "Your newest notifications and the unread count",
      response: { 200: notificationListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.listNotifications),
  });

  app.post("/api/notifications/:id/read", {
    config: { access },
    schema: {
      tags,
      summary: "Mark one notification read",
      params: notificationParams,
      response: { 200: unreadCountAnswer, ...errors },
    },
    handler: (req) =>
      inRequest(app, req, async (ctx) => {
        await service.markRead(ctx, req.params.id);
        return { unread_count: await service.unreadCount(ctx) };
      }),
  });

  app.post("/api/notifications/read-all", {
    config: { access },
    schema: { tags, summary: "Mark all your notifications read", response: { 200: unreadCountAnswer, ...errors } },
    handler: (req) =>
      inRequest(app, req, async (ctx) => {
        await service.markAllRead(ctx);
        return { unread_count: 0 };
      }),
  });
}
