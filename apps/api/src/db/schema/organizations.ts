import { PLAN_IDS } from "@cove/contract/constants.ts";
import { integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/** The tenant itself. RLS lets a request see only its own organization row. */
export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  /** The plan whose limits apply; a trial runs on growth. */
  plan: text("plan", { enum: PLAN_IDS }).notNull(),
  subscriptionStatus: text("subscription_status", { enum: ["trialing", "active", "past_due", "canceled"] }).notNull(),
  trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
  timezone: text("timezone").notNull().default("UTC"),
  /** The last ticket number handed out; bumped in the creating transaction, so numbers never repeat. */
  ticketSeq: integer("ticket_seq").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
