import { ARTICLES_TO_WRITE, type OnboardingAnswer, type OnboardingStep } from "@cove/contract/onboarding.ts";
import { and, count, eq } from "drizzle-orm";
import { onboardingDismissals } from "../../db/schema/onboarding.ts";
import { users } from "../../db/schema/users.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { businessHoursSaved } from "../automation/index.ts";
import { anyChatStarted } from "../chat/index.ts";
import { emailConnected } from "../email/index.ts";
import { publishedArticleCount } from "../kb/index.ts";

const yesNo = (id: OnboardingStep["id"], done: boolean): OnboardingStep => ({ id, done, progress: null });

/**
 * The getting-started checklist of the caller's organization: each step read from what the organization has done
 * (its team, its mail, its chats, its articles, its business hours), and whether the caller dismissed it.
 */
export async function onboarding(ctx: Ctx): Promise<OnboardingAnswer> {
  const { db, orgId } = ctx;
  const [team] = await db.select({ n: count() }).from(users).where(eq(users.organizationId, orgId));
  const articles = await publishedArticleCount(db, orgId);
  const [dismissal] = await db
    .select({ at: onboardingDismissals.dismissedAt })
    .from(onboardingDismissals)
    .where(and(eq(onboardingDismissals.organizationId, orgId), eq(onboardingDismissals.userId, ctx.userId)));
  return {
    steps: [
      // Anyone besides the member who registered: invited (the invitation is a member row) or joined.
      yesNo("invite_teammate", (team?.n ?? 0) > 1),
      yesNo("connect_email", await emailConnected(db, orgId)),
      yesNo("add_widget", await anyChatStarted(db, orgId)),
      {
        id: "write_articles",
        done: articles >= ARTICLES_TO_WRITE,
        progress: { count: Math.min(articles, ARTICLES_TO_WRITE), target: ARTICLES_TO_WRITE },
      },
      yesNo("set_business_hours", await businessHoursSaved(db, orgId)),
    ],
    dismissed: dismissal !== undefined,
  };
}

/** Puts the checklist away for the caller alone, or brings it back. */
export async function setDismissed(ctx: Ctx, dismissed: boolean): Promise<OnboardingAnswer> {
  if (dismissed) {
    await ctx.db
      .insert(onboardingDismissals)
      .values({ userId: ctx.userId, organizationId: ctx.orgId })
      .onConflictDoNothing({ target: onboardingDismissals.userId });
  } else {
    await ctx.db
      .delete(onboardingDismissals)
      .where(and(eq(onboardingDismissals.organizationId, ctx.orgId), eq(onboardingDismissals.userId, ctx.userId)));
  }
  return onboarding(ctx);
}
