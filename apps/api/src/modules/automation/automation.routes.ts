import { automationApi } from "@cove/contract/automation.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import { registerAutomationHandlers } from "./automation.engine.ts";
import * as service from "./automation.service.ts";
import { scheduleTimeRules } from "./automation.timers.ts";
import * as canned from "./canned-replies.service.ts";
import * as sla from "./sla.ts";
import { registerSlaHandlers, workSlaRecomputes } from "./sla.ts";

const ruleId = (id: string) => recordId("Rule", id);
const cannedId = (id: string) => recordId("Canned reply", id);

/**
 * The rules (docs/product.md, "API calls") with their run log and the screen's figures (the contract's automationApi:
 * admins change, agents read); the engine runs them on ticket events.
 */
export async function automationRoutes(app: FastifyInstance) {
  // SLA due times first, so the rules of a ticket's creation already see them stored.
  registerSlaHandlers(app.events);
  registerAutomationHandlers(app.events);
  workSlaRecomputes(app.jobs, app.db);
  scheduleTimeRules(app.jobs, app.db, app.log);

  addRoute(app, automationApi.listRules, {
    handler: async (req) => ({ rules: await inRequest(app, req, service.listRules) }),
  });

  addRoute(app, automationApi.createRule, {
    handler: async (req, reply) =>
      reply.status(201).send({ rule: await inRequest(app, req, (ctx) => service.createRule(ctx, req.body)) }),
  });

  addRoute(app, automationApi.updateRule, {
    handler: async (req) => ({
      rule: await inRequest(app, req, (ctx) => service.updateRule(ctx, ruleId(req.params.id), req.body)),
    }),
  });

  addRoute(app, automationApi.deleteRule, {
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.deleteRule(ctx, ruleId(req.params.id)));
      return { message: "Rule deleted" };
    },
  });

  addRoute(app, automationApi.ruleRuns, {
    handler: async (req) => ({
      runs: await inRequest(app, req, (ctx) => service.listRuns(ctx, ruleId(req.params.id))),
    }),
  });

  addRoute(app, automationApi.stats, { handler: (req) => inRequest(app, req, service.automationStats) });

  addRoute(app, automationApi.slaTargets, { handler: (req) => inRequest(app, req, sla.getSlaSettings) });

  addRoute(app, automationApi.putSlaTargets, {
    handler: (req) => inRequest(app, req, (ctx) => sla.putTargets(ctx, req.body, app.jobs)),
  });

  addRoute(app, automationApi.ticketSla, {
    handler: (req) => inRequest(app, req, "api_key", (ctx) => sla.ticketSla(ctx, recordId("Ticket", req.params.id))),
  });

  addRoute(app, automationApi.listCannedReplies, {
    handler: async (req) => ({ canned_replies: await inRequest(app, req, canned.listCannedReplies) }),
  });

  addRoute(app, automationApi.createCannedReply, {
    handler: async (req, reply) =>
      reply
        .status(201)
        .send({ canned_reply: await inRequest(app, req, (ctx) => canned.createCannedReply(ctx, req.body)) }),
  });

  addRoute(app, automationApi.updateCannedReply, {
    handler: async (req) => ({
      canned_reply: await inRequest(app, req, (ctx) =>
        canned.updateCannedReply(ctx, cannedId(req.params.id), req.body),
      ),
    }),
  });

  addRoute(app, automationApi.deleteCannedReply, {
    handler: async (req) => {
      await inRequest(app, req, (ctx) => canned.deleteCannedReply(ctx, cannedId(req.params.id)));
      return { message: "Canned reply deleted" };
    },
  });
}
