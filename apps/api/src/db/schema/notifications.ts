import { NOTIFICATION_TYPES } from "@cove/contract/notifications.ts";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { organizations } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/** A staff member's in-app notifications (docs/product.md: the bell): assigned to them, a reply, a mention, a chat waiting. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
    ticketId: uuid("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    /** Who caused it, as shown ("Priya Shah", "A customer", "Automation"). */
    actorName: text("actor_name").notNull(),
    /** One line: what happened, e.g. "#42 Refund for a broken lamp". */
    title: text("title").notNull(),
    /** An excerpt (a reply's first words), or empty. */
    excerpt: text("excerpt").notNull().default(""),
    /** An in-app path the notification opens, e.g. /tickets/<id>. */
    link: text("link").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_org_user_created_idx").on(t.organizationId, t.userId, t.createdAt.desc())],
);
