import { z } from "zod";
import { defineRoute } from "./routes.ts";

/**
 * A new organization's first steps, shown to its admins on the dashboard as a checklist. Each step is ticked by Cove
 * when the organization has done it (its data says so), never by the user; the checklist can be dismissed, by each
 * member for themselves (docs/decisions/2026-11-29-getting-started-checklist.md).
 */
export const ONBOARDING_STEPS = [
  /** Another member of the team, invited or joined. */
  "invite_teammate",
  /** Customers' email reaches Cove: a message came in at the inbound address, or a mailbox is connected. */
  "connect_email",
  /** The chat widget is on a website: a visitor started a chat. */
  "add_widget",
  /** ARTICLES_TO_WRITE published help articles. */
  "write_articles",
  /** Business hours saved (with the SLA targets), rather than the default Monday to Friday, 09:00-17:00. */
  "set_business_hours",
] as const;
export type OnboardingStepId = (typeof ONBOARDING_STEPS)[number];

/** The help center the assistant answers from starts being useful at this many published articles. */
export const ARTICLES_TO_WRITE = 3;

export const onboardingStep = z.object({
  id: z.enum(ONBOARDING_STEPS),
  done: z.boolean(),
  /** How far a counted step is (published articles): count of target. Null for a yes-or-no step. */
  progress: z.object({ count: z.number().int(), target: z.number().int() }).nullable(),
});
export type OnboardingStep = z.infer<typeof onboardingStep>;

export const onboardingAnswer = z.object({
  /** Every step, in ONBOARDING_STEPS order. */
  steps: z.array(onboardingStep),
  /** The signed-in member dismissed the checklist. */
  dismissed: z.boolean(),
});
export type OnboardingAnswer = z.infer<typeof onboardingAnswer>;

export const onboardingBody = z.object({
  dismissed: z.boolean({ error: "dismissed must be true or false" }),
});
export type OnboardingBody = z.infer<typeof onboardingBody>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["onboarding"];

/** The getting-started checklist on the dashboard: read by any member, dismissed by each for themselves. */
export const onboardingApi = {
  get: defineRoute({
    method: "GET",
    path: "/api/onboarding",
    summary: "The organization's first steps, each done or not, and whether you dismissed the checklist",
    tags,
    access: "authenticated",
    answers: { 200: onboardingAnswer },
  }),
  setDismissed: defineRoute({
    method: "PUT",
    path: "/api/onboarding",
    summary: "Dismiss the checklist for yourself ({dismissed: true}), or bring it back ({dismissed: false})",
    tags,
    access: "authenticated",
    body: onboardingBody,
    answers: { 200: onboardingAnswer },
  }),
};
