import { NOTIFICATION_TYPES } from "@cove/contract/notifications.ts";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, refCascade, timestamptz } from "./columns.ts";
import { tenantRow } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/** A staff member's in-app notifications (docs/product.md: the bell): assigned to them, a reply, a mention, a chat waiting. */
export const notifications = pgTable(
  "notifications",
  {
    ...tenantRow(),
    userId: refCascade("user_id", () => users.id).notNull(),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    ticketId: refCascade("ticket_id", () => tickets.id),
    /** Who caused it, as shown ("Priya Shah", "A customer", "Automation"). */
    actorName: text("actor_name").notNull(),
    /** One line: what happened, e.g. "#42 Refund for a broken lamp". */
    title: text("title").notNull(),
    /** An excerpt (a reply's first words), or empty. */
    excerpt: text("excerpt").notNull().default(""),
    /** An in-app path the notification opens, e.g. /tickets/<id>. */
    link: text("link").notNull(),
    readAt: timestamptz("read_at"),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_org_user_created_idx").on(t.organizationId, t.userId, t.createdAt.desc())],
);
