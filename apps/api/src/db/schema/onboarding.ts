import { pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

/**
 * The members who dismissed the getting-started checklist (modules/onboarding). Per member, not per organization: one
 * admin putting it away leaves it in place for another who is still setting up.
 */
export const onboardingDismissals = pgTable("onboarding_dismissals", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  organizationId: uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  dismissedAt: timestamp("dismissed_at", { withTimezone: true }).notNull().defaultNow(),
});
