import { ticketListQuery, ticketsApi } from "@cove/contract/tickets.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { inRequest, readInRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import type { Principal } from "../../platform/tenancy.ts";
import { ticketListRead } from "./tickets.list.ts";
import { ticketDetailRead } from "./tickets.queries.ts";
import { registerTicketTopics } from "./tickets.realtime.ts";
import * as service from "./tickets.service.ts";
import { ticketStatsRead } from "./tickets.stats.ts";

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

/** The tickets (the contract's ticketsApi): members read and change them, and so do the organization's API keys. */
export async function ticketRoutes(app: FastifyInstance) {
  registerTicketTopics(app);

  addRoute(app, ticketsApi.list, {
    config: { answerCache: { key: listKey } },
    handler: (req) => readInRequest(app, req, "api_key", (reader) => ticketListRead(reader, req.query)),
  });

  addRoute(app, ticketsApi.stats, {
    config: { answerCache: { key: () => [], daily: true } },
    handler: (req) => readInRequest(app, req, "staff", ticketStatsRead),
  });

  addRoute(app, ticketsApi.get, {
    config: { answerCache: { key: (req) => [(req.params as { id: string }).id] } },
    handler: async (req) => ({
      ticket: await readTicket(app, req, ticketId(req.params.id)),
    }),
  });

  addRoute(app, ticketsApi.create, {
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

  addRoute(app, ticketsApi.update, {
    handler: async (req) => ({
      ticket: await inRequest(app, req, "api_key", (ctx) =>
        service.updateTicket(ctx, ticketId(req.params.id), req.body),
      ),
    }),
  });

  addRoute(app, ticketsApi.comment, {
    handler: async (req, reply) =>
      reply.status(201).send({
        comment: await inRequest(app, req, "api_key", (ctx) =>
          service.addComment(ctx, ticketId(req.params.id), req.body, app.attachmentLimits),
        ),
      }),
  });
}

/** A ticket's detail as one read (ticketDetailRead); 404 when the organization has no such ticket. */
async function readTicket(app: FastifyInstance, req: FastifyRequest, id: string) {
  const ticket = await readInRequest(app, req, "api_key", (reader) => ticketDetailRead(reader.orgId, id));
  if (!ticket) throw service.ticketNotFound();
  return ticket;
}
