import { pgTable } from "drizzle-orm/pg-core";
import { refCascade, timestamptz } from "./columns.ts";
import { organizationId } from "./organizations.ts";
import { users } from "./users.ts";

/**
 * The members who dismissed the getting-started checklist (modules/onboarding). Per member, not per organization: one
 * admin putting it away leaves it in place for another who is still setting up.
 */
export const onboardingDismissals = pgTable("onboarding_dismissals", {
  userId: refCascade("user_id", () => users.id).primaryKey(),
  organizationId: organizationId(),
  dismissedAt: timestamptz("dismissed_at").notNull().defaultNow(),
});
