import { contactsApi } from "@cove/contract/contacts.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import type { ContactRecords } from "./contacts.queries.ts";
import * as queries from "./contacts.queries.ts";

/**
 * The organization's customers, for staff (the contract's contactsApi; contacts never reach these routes: they admit
 * staff only). records: the tickets' and chats' functions the views show (contacts.queries.ts, ContactRecords).
 */
export async function contactRoutes(app: FastifyInstance, { records }: { records: ContactRecords }) {
  addRoute(app, contactsApi.list, {
    handler: (req) => inRequest(app, req, (ctx) => queries.listContacts(ctx, records, req.query)),
  });

  addRoute(app, contactsApi.get, {
    handler: (req) =>
      inRequest(app, req, (ctx) => queries.getContact(ctx, records, recordId("Contact", req.params.id))),
  });

  addRoute(app, contactsApi.ofTicket, {
    handler: (req) =>
      inRequest(app, req, (ctx) => queries.contactOfTicket(ctx, records, recordId("Ticket", req.params.id))),
  });
}
