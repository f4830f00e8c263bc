import { contactAnswer, contactListAnswer, contactListQuery, ticketContactAnswer } from "@cove/contract/contacts.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { ContactRecords } from "./contacts.queries.ts";
import * as queries from "./contacts.queries.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const tags = ["contacts"];
// An id that is not one of the organization's, malformed ones included, is simply not found.
const params = idParams;
const uuidOr404 = (id: string, what: string) => recordId(what, id);

/**
 * The organization's customers, for staff (contacts never reach these routes: they admit staff only). records: the
 * tickets' and chats' functions the views show (contacts.queries.ts, ContactRecords).
 */
export async function contactRoutes(fastify: FastifyInstance, { records }: { records: ContactRecords }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const access = "authenticated" as const;

  app.get("/api/contacts", {
    config: { access },
    schema: {
      tags,
      summary: "The organization's customers, newest first; search by name, email or company",
      querystring: contactListQuery,
      response: { 200: contactListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => queries.listContacts(ctx, records, req.query)),
  });

  app.get("/api/contacts/:id", {
    config: { access },
    schema: {
      tags,
      summary: "A customer with their tickets",
      params,
      response: { 200: contactAnswer, ...errors },
    },
    handler: (req) =>
      inRequest(app, req, (ctx) => queries.getContact(ctx, records, uuidOr404(req.params.id, "Contact"))),
  });

  app.get("/api/tickets/:id/contact", {
    config: { access },
    schema: {
      tags,
      summary: "A ticket's requester as a customer, with their other tickets",
      params,
      response: { 200: ticketContactAnswer, ...errors },
    },
    handler: (req) =>
      inRequest(app, req, (ctx) => queries.contactOfTicket(ctx, records, uuidOr404(req.params.id, "Ticket"))),
  });
}
