import { z } from "zod";
import { defineRoute, idParams } from "./routes.ts";

/** What a notification is about (docs/product.md: the bell). */
export const NOTIFICATION_TYPES = [
  "assigned",
  "reply",
  "mention",
  "chat_waiting",
  "escalated",
  /** A ticket's SLA due time is close (less than a fifth of its target left), or has passed. */
  "sla_warning",
  "sla_breached",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The bell's list: the newest first. */
export const NOTIFICATION_PAGE = 30;

export const notificationSchema = z.object({
  id: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  actor_name: z.string(),
  title: z.string(),
  excerpt: z.string(),
  link: z.string(),
  ticket_id: z.uuid().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListAnswer = z.object({
  notifications: z.array(notificationSchema),
  unread_count: z.number().int(),
});
export type NotificationListAnswer = z.infer<typeof notificationListAnswer>;

export const unreadCountAnswer = z.object({ unread_count: z.number().int() });

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["notifications"];

/** The bell: each member reads and clears only their own notifications; new ones arrive on the realtime socket. */
export const notificationsApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/notifications",
    summary: "Your newest notifications and the unread count",
    tags,
    access: "authenticated",
    answers: { 200: notificationListAnswer },
  }),
  markRead: defineRoute({
    method: "POST",
    path: "/api/notifications/:id/read",
    summary: "Mark one notification read",
    tags,
    access: "authenticated",
    params: idParams,
    answers: { 200: unreadCountAnswer },
  }),
  markAllRead: defineRoute({
    method: "POST",
    path: "/api/notifications/read-all",
    summary: "Mark all your notifications read",
    tags,
    access: "authenticated",
    answers: { 200: unreadCountAnswer },
  }),
};
