// The csat module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { customerSurveyAnswers, deleteSurveysOfContact } from "./csat.privacy.ts";
export { ratingsOfTickets, surveysByDay } from "./csat.reports.ts";
export { csatRoutes } from "./csat.routes.ts";
export { insertPastSurvey, rateMyTicket, ratingOfTicket, surveyOfTicket } from "./csat.service.ts";
