import { CSAT_THANKS, csatApi } from "@cove/contract/csat.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./csat.service.ts";

const limit = { max: 30, timeWindow: "10 minutes" };

/**
 * Customer satisfaction: the survey opens when a ticket is solved (in that transaction) and is emailed from the job
 * queue; customers answer in the portal or through the emailed link; the dashboard reads the scores.
 */
export async function csatRoutes(app: FastifyInstance) {
  const mail = { jobs: app.jobs, publicUrl: app.publicUrl };

  app.events.onInTransaction(["ticket.status_changed"], service.openSurvey);
  app.events.onCommitted("csat-survey", ["ticket.status_changed"], (event) => service.mailSurvey(app.db, mail, event));
  // The dashboard's figures follow answers live; the customer's other tabs see their answer.
  app.realtime.route(["csat.rated"], (event) => [
    { topic: "tickets", kinds: ["staff"] },
    { topic: `ticket:${event.data.ticket_id}` },
  ]);

  addRoute(app, csatApi.stats, { handler: (req) => inRequest(app, req, service.csatStats) });

  addRoute(app, csatApi.lookup, {
    config: { rateLimit: limit },
    handler: (req) => service.lookupSurvey(app.db, req.body.token),
  });

  addRoute(app, csatApi.rate, {
    config: {
      rateLimit: limit,
      writesTo: (req) => service.surveyOrganization(app.db, (req.body as { token: string }).token),
    },
    handler: async (req) => ({ satisfaction: await service.rateByToken(app.db, req.body), message: CSAT_THANKS }),
  });
}
