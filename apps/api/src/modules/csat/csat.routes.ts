import {
  CSAT_THANKS,
  csatStatsAnswer,
  rateByTokenBody,
  satisfactionSchema,
  surveyAnswer,
  surveyTokenBody,
} from "@cove/contract/csat.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import * as service from "./csat.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };
const tags = ["satisfaction"];
const limit = { max: 30, timeWindow: "10 minutes" };

/**
 * Customer satisfaction: the survey opens when a ticket is solved (in that transaction) and is emailed from the job
 * queue; customers answer in the portal or through the emailed link; the dashboard reads the scores.
 */
export async function csatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const mail = { jobs: app.jobs, publicUrl: app.publicUrl };

  app.events.onInTransaction(["ticket.status_changed"], service.openSurvey);
  app.events.onCommitted("csat-survey", ["ticket.status_changed"], (event) => service.mailSurvey(app.db, mail, event));
  // The dashboard's figures follow answers live; the customer's other tabs see their answer.
  app.realtime.route(["csat.rated"], (event) => [
    { topic: "tickets", kinds: ["staff"] },
    { topic: `ticket:${event.data.ticket_id}` },
  ]);

  app.get("/api/csat/stats", {
    config: { access: "authenticated" },
    schema: {
      tags,
      summary: "Satisfaction over the last 30 days: overall, by people and by the AI, and per agent",
      response: { 200: csatStatsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.csatStats),
  });

  app.post("/api/portal/satisfaction/lookup", {
    config: { access: "public", rateLimit: limit },
    schema: {
      tags,
      summary: "The survey of an emailed link (its token in the body)",
      body: surveyTokenBody,
      response: { 200: surveyAnswer, ...errors },
    },
    handler: (req) => service.lookupSurvey(app.db, req.body.token),
  });

  app.post("/api/portal/satisfaction", {
    config: {
      access: "public",
      rateLimit: limit,
      writesTo: (req) => service.surveyOrganization(app.db, (req.body as { token: string }).token),
    },
    schema: {
      tags,
      summary: "Answer (or change the answer to) the survey of an emailed link",
      body: rateByTokenBody,
      response: { 200: z.object({ satisfaction: satisfactionSchema, message: z.string() }), ...errors },
    },
    handler: async (req) => ({ satisfaction: await service.rateByToken(app.db, req.body), message: CSAT_THANKS }),
  });
}
