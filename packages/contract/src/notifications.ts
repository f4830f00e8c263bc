import { z } from "zod";

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

export const notificationParams = z.object({ id: z.string() });
export const unreadCountAnswer = z.object({ unread_count: z.number().int() });
