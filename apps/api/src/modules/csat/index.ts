// The csat module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { csatRoutes } from "./csat.routes.ts";

export { customerSurveyAnswers, deleteSurveysOfContact } from "./csat.privacy.ts";
export { ratingsOfTickets, surveysByDay } from "./csat.reports.ts";
export { insertPastSurvey, rateMyTicket, ratingOfTicket, surveyOfTicket, ticketRatingJson } from "./csat.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(csatRoutes);
}
