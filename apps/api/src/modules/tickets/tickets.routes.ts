import { errorSchema } from "@cove/contract/errors.ts";
import {
  commentAnswer,
  createCommentBody,
  createTicketBody,
  ticketAnswer,
  ticketListAnswer,
  ticketListQuery,
  ticketStats,
  updateTicketBody,
} from "@cove/contract/tickets.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { Principal } from "../../platform/tenancy.ts";
import { listTickets } from "./tickets.list.ts";
import { registerTicketTopics } from "./tickets.realtime.ts";
import * as service from "./tickets.service.ts";
import { ticketStats as loadStats } from "./tickets.stats.ts";

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };
const tags = ["tickets"];
const params = idParams;
const ticketId = (id: string) => recordId("Ticket", id);

type ListQuery = z.output<typeof ticketListQuery>;

/**
 * What a list's answer depends on: every field of the validated query, in the schema's order (a field added to the
 * query is in the key without anyone adding it), with "me" read as the caller.
 */
export const listKey = (req: FastifyRequest, who: Principal) => {
  const q = req.query as ListQuery;
  return (Object.keys(ticketListQuery.shape) as (keyof ListQuery)[]).map((field) =>
    field === "assignee_id" && q.assignee_id === "me" ? who.userId : q[field],
  );
};

export async function ticketRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const access = "authenticated" as const;
  // The public REST API: the organization's API keys read and change tickets like a member (docs/product.md, "Beyond the brief").
  const actors = ["api_key"] as const;
  registerTicketTopics(fastify);

  app.get("/api/tickets", {
    config: { access, actors, answerCache: { key: listKey } },
    schema: {
      tags,
      summary: "List tickets: filters, search, pages",
      querystring: ticketListQuery,
      response: { 200: ticketListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, "api_key", (ctx) => listTickets(ctx, req.query)),
  });

  app.get("/api/tickets/stats/overview", {
    config: { access, answerCache: { key: () => [], daily: true } },
    schema: { tags, summary: "Dashboard figures", response: { 200: ticketStats, ...errors } },
    handler: (req) => inRequest(app, req, loadStats),
  });

  app.get("/api/tickets/:id", {
    config: { access, actors, answerCache: { key: (req) => [(req.params as { id: string }).id] } },
    schema: {
      tags,
      summary: "A ticket with its comments and activity",
      params,
      response: { 200: ticketAnswer, ...errors },
    },
    handler: async (req) => ({
      ticket: await inRequest(app, req, "api_key", (ctx) => service.getTicket(ctx, ticketId(req.params.id))),
    }),
  });

  app.post("/api/tickets", {
    config: { access, actors },
    schema: { tags, summary: "Create a ticket", body: createTicketBody, response: { 201: ticketAnswer, ...errors } },
    handler: async (req, reply) =>
      reply.status(201).send({
        ticket: await inRequest(app, req, "api_key", (ctx) =>
          service.createTicket(
            ctx,
            req.body,
            { source: ctx.actor.kind === "api_key" ? "api" : "web" },
            app.attachmentLimits,
          ),
        ),
      }),
  });

  app.put("/api/tickets/:id", {
    config: { access, actors },
    schema: {
      tags,
      summary: "Change status, priority, assignee or tags",
      params,
      body: updateTicketBody,
      response: { 200: ticketAnswer, ...errors },
    },
    handler: async (req) => ({
      ticket: await inRequest(app, req, "api_key", (ctx) =>
        service.updateTicket(ctx, ticketId(req.params.id), req.body),
      ),
    }),
  });

  app.post("/api/tickets/:id/comments", {
    config: { access, actors },
    schema: {
      tags,
      summary: "Reply publicly or add an internal note",
      params,
      body: createCommentBody,
      response: { 201: commentAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({
        comment: await inRequest(app, req, "api_key", (ctx) =>
          service.addComment(ctx, ticketId(req.params.id), req.body, app.attachmentLimits),
        ),
      }),
  });
}
