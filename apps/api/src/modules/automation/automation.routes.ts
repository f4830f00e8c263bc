import { messageAnswer } from "@cove/contract/auth.ts";
import {
  automationStats,
  createRuleBody,
  ruleAnswer,
  ruleListAnswer,
  ruleRunsAnswer,
  updateRuleBody,
} from "@cove/contract/automation.ts";
import { cannedReplyAnswer, cannedReplyBody, cannedReplyListAnswer } from "@cove/contract/canned-replies.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import { slaTargetsAnswer, slaTargetsBody, ticketSlaAnswer } from "@cove/contract/sla.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import { registerAutomationHandlers } from "./automation.engine.ts";
import * as service from "./automation.service.ts";
import { scheduleTimeRules } from "./automation.timers.ts";
import * as canned from "./canned-replies.service.ts";
import * as sla from "./sla.ts";
import { registerSlaHandlers, workSlaRecomputes } from "./sla.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const tags = ["automation"];
/**
 * Changing automation is for admins (docs/product.md, "Roles": the server enforces it, 403); agents see the rules, their
 * logs, the figures and the SLA settings read-only, as the screen shows them.
 */
const admin = { access: "admin" } as const;
const team = { access: "authenticated" } as const;
const params = idParams;
const ruleId = (id: string) => recordId("Rule", id);

/** The rules (docs/product.md, "API calls") with their run log and the screen's figures; the engine runs them on ticket events. */
export async function automationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // SLA due times first, so the rules of a ticket's creation already see them stored.
  registerSlaHandlers(app.events);
  registerAutomationHandlers(app.events);
  workSlaRecomputes(app.jobs, app.db);
  scheduleTimeRules(app.jobs, app.db, app.log);

  app.get("/api/automation/rules", {
    config: team,
    schema: { tags, summary: "The rules, in the order they run", response: { 200: ruleListAnswer, ...errors } },
    handler: async (req) => ({ rules: await inRequest(app, req, service.listRules) }),
  });

  app.post("/api/automation/rules", {
    config: admin,
    schema: { tags, summary: "Create a rule", body: createRuleBody, response: { 201: ruleAnswer, ...errors } },
    handler: async (req, reply) =>
      reply.status(201).send({ rule: await inRequest(app, req, (ctx) => service.createRule(ctx, req.body)) }),
  });

  app.put("/api/automation/rules/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Change a rule: all its fields, or only isActive (pause/activate), or only position",
      params,
      body: updateRuleBody,
      response: { 200: ruleAnswer, ...errors },
    },
    handler: async (req) => ({
      rule: await inRequest(app, req, (ctx) => service.updateRule(ctx, ruleId(req.params.id), req.body)),
    }),
  });

  app.delete("/api/automation/rules/:id", {
    config: admin,
    schema: { tags, summary: "Delete a rule", params, response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.deleteRule(ctx, ruleId(req.params.id)));
      return { message: "Rule deleted" };
    },
  });

  app.get("/api/automation/rules/:id/runs", {
    config: team,
    schema: {
      tags,
      summary: "A rule's newest runs: the event, whether its conditions held, what it did, errors",
      params,
      response: { 200: ruleRunsAnswer, ...errors },
    },
    handler: async (req) => ({
      runs: await inRequest(app, req, (ctx) => service.listRuns(ctx, ruleId(req.params.id))),
    }),
  });

  app.get("/api/automation/stats", {
    config: team,
    schema: {
      tags,
      summary: "Total Rules, Active Rules and Executions Today",
      response: { 200: automationStats, ...errors },
    },
    handler: (req) => inRequest(app, req, service.automationStats),
  });

  app.get("/api/automation/sla", {
    config: team,
    schema: {
      tags,
      summary: "SLA targets per priority, and the business hours they count in",
      response: { 200: slaTargetsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, sla.getSlaSettings),
  });

  app.put("/api/automation/sla", {
    config: admin,
    schema: {
      tags,
      summary:
        "Set the SLA targets of the priorities sent, and the business hours when sent; open tickets' due times follow within moments",
      body: slaTargetsBody,
      response: { 200: slaTargetsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => sla.putTargets(ctx, req.body, app.jobs)),
  });

  // A ticket's due times are for the whole team, like the ticket itself.
  app.get("/api/tickets/:id/sla", {
    config: { access: "authenticated", actors: ["api_key"] },
    schema: {
      tags,
      summary: "A ticket's first-response and resolution due times under its priority's SLA targets",
      params,
      response: { 200: ticketSlaAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, "api_key", (ctx) => sla.ticketSla(ctx, recordId("Ticket", req.params.id))),
  });

  // Canned replies: the whole team inserts them; admins keep the list (like the rules).
  const cannedId = (id: string) => recordId("Canned reply", id);
  app.get("/api/canned-replies", {
    config: { access: "authenticated" },
    schema: { tags, summary: "The organization's canned replies", response: { 200: cannedReplyListAnswer, ...errors } },
    handler: async (req) => ({ canned_replies: await inRequest(app, req, canned.listCannedReplies) }),
  });

  app.post("/api/canned-replies", {
    config: admin,
    schema: {
      tags,
      summary: "Save a canned reply",
      body: cannedReplyBody,
      response: { 201: cannedReplyAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply
        .status(201)
        .send({ canned_reply: await inRequest(app, req, (ctx) => canned.createCannedReply(ctx, req.body)) }),
  });

  app.put("/api/canned-replies/:id", {
    config: admin,
    schema: {
      tags,
      summary: "Change a canned reply",
      params,
      body: cannedReplyBody,
      response: { 200: cannedReplyAnswer, ...errors },
    },
    handler: async (req) => ({
      canned_reply: await inRequest(app, req, (ctx) =>
        canned.updateCannedReply(ctx, cannedId(req.params.id), req.body),
      ),
    }),
  });

  app.delete("/api/canned-replies/:id", {
    config: admin,
    schema: { tags, summary: "Delete a canned reply", params, response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => canned.deleteCannedReply(ctx, cannedId(req.params.id)));
      return { message: "Canned reply deleted" };
    },
  });
}
