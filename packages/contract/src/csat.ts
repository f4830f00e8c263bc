import { z } from "zod";
import { defineRoute } from "./routes.ts";

/**
 * Customer satisfaction (CSAT): when a ticket is solved its customer is asked one question, by email and in the
 * portal: was the support Good or Bad, with an optional comment. One answer per ticket, changeable for a while.
 */
export const CSAT_RATINGS = ["good", "bad"] as const;
export type CsatRating = (typeof CSAT_RATINGS)[number];
/** An answer can be given or changed for this many days after the ticket was solved. */
export const CSAT_CHANGE_DAYS = 7;
/** The dashboard's scores cover this many days. */
export const CSAT_PERIOD_DAYS = 30;
export const CSAT_COMMENT_MAX = 2000;
/** The question, as the email and the portal ask it. */
export const CSAT_QUESTION = "How would you rate the support you received?";
export const CSAT_THANKS = "Thank you for your feedback!";

export const rateBody = z.object({
  rating: z.enum(CSAT_RATINGS, { error: "Choose Good or Bad" }),
  comment: z
    .string({ error: "The comment must be text" })
    .trim()
    .max(CSAT_COMMENT_MAX, `The comment must be at most ${CSAT_COMMENT_MAX.toLocaleString("en-US")} characters`)
    .refine((s) => !s.includes("\u0000"), "The comment contains an invalid character")
    .nullish()
    .transform((s) => s || null),
});
export type RateBody = z.input<typeof rateBody>;

/** A ticket's survey as its customer sees it. */
export const satisfactionSchema = z.object({
  rating: z.enum(CSAT_RATINGS).nullable(),
  comment: z.string().nullable(),
  /** Until when the answer can be given or changed. */
  changeable_until: z.string(),
  can_change: z.boolean(),
});
export type Satisfaction = z.infer<typeof satisfactionSchema>;
export const satisfactionAnswer = z.object({ satisfaction: satisfactionSchema });

/** The emailed link's page: the token travels in the body, never the URL path (kept out of logs). */
export const surveyTokenBody = z.object({ token: z.string().trim().min(20).max(200) });
export const surveyAnswer = z.object({
  organization: z.object({ name: z.string(), slug: z.string() }),
  ticket: z.object({ ticket_number: z.number().int(), subject: z.string() }),
  satisfaction: satisfactionSchema,
});
export type SurveyAnswer = z.infer<typeof surveyAnswer>;
export const rateByTokenBody = surveyTokenBody.and(rateBody);

/** Good and bad answers of a period; score is the share of good ones in percent (null with no answers). */
export const csatScoreSchema = z.object({
  good: z.number().int(),
  bad: z.number().int(),
  score: z.number().int().nullable(),
});
export type CsatScore = z.infer<typeof csatScoreSchema>;

export const csatStatsAnswer = z.object({
  period_days: z.number().int(),
  /** Surveys sent in the period (tickets solved with a customer to ask). */
  surveys_sent: z.number().int(),
  overall: csatScoreSchema,
  /** Tickets people resolved. */
  people: csatScoreSchema,
  /** Live chats the assistant resolved without a hand-off, as their visitors rated them (available is always true). */
  ai: csatScoreSchema.extend({ available: z.boolean() }),
  agents: z.array(
    csatScoreSchema.extend({ agent_id: z.uuid().nullable(), first_name: z.string(), last_name: z.string() }),
  ),
});
export type CsatStatsAnswer = z.infer<typeof csatStatsAnswer>;

/** The share of good answers, in whole percent; null when there are none. */
export function csatScore(good: number, bad: number): number | null {
  return good + bad === 0 ? null : Math.round((good * 100) / (good + bad));
}

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["satisfaction"];

/**
 * Customer satisfaction: the dashboard reads the scores; customers answer through the emailed link (no sign-in, so
 * both of its routes are limited per address by the API).
 */
export const csatApi = {
  stats: defineRoute({
    method: "GET",
    path: "/api/csat/stats",
    summary: "Satisfaction over the last 30 days: overall, by people and by the AI, and per agent",
    tags,
    access: "authenticated",
    answers: { 200: csatStatsAnswer },
  }),
  lookup: defineRoute({
    method: "POST",
    path: "/api/portal/satisfaction/lookup",
    summary: "The survey of an emailed link (its token in the body)",
    tags,
    access: "public",
    body: surveyTokenBody,
    answers: { 200: surveyAnswer },
    // A token of no survey.
    errors: ["NOT_FOUND"],
  }),
  rate: defineRoute({
    method: "POST",
    path: "/api/portal/satisfaction",
    summary: "Answer (or change the answer to) the survey of an emailed link",
    tags,
    access: "public",
    body: rateByTokenBody,
    answers: { 200: z.object({ satisfaction: satisfactionSchema, message: z.string() }) },
    // A token of no survey; the ticket was reopened, or the survey has closed.
    errors: ["NOT_FOUND", "CONFLICT"],
  }),
};
