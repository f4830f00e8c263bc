import { emailApi } from "@cove/contract/email.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import { type EmailChannelOptions, registerEmailChannel } from "./email.handlers.ts";
import { listUnfiled, originalEmail, ticketEmails, unfiledRaw } from "./email.queries.ts";

/**
 * The email channel (the contract's emailApi): its event consumers, what the receiver kept without filing (admins),
 * and the emails received on a ticket.
 */
export async function emailRoutes(app: FastifyInstance, opts: EmailChannelOptions & { publicUrl: string }) {
  registerEmailChannel(app, opts, opts.publicUrl);

  addRoute(app, emailApi.unfiled, {
    handler: async (req) => ({ messages: await inRequest(app, req, listUnfiled) }),
  });

  addRoute(app, emailApi.ofTicket, {
    handler: async (req) => ({
      emails: await inRequest(app, req, (ctx) => ticketEmails(ctx, recordId("Ticket", req.params.id))),
    }),
  });

  addRoute(app, emailApi.original, {
    handler: async (req) => ({
      email: await inRequest(app, req, (ctx) => originalEmail(ctx, recordId("Email", req.params.id))),
    }),
  });

  addRoute(app, emailApi.unfiledRaw, {
    handler: async (req, reply) => {
      const raw = await inRequest(app, req, (ctx) => unfiledRaw(ctx, recordId("Message", req.params.id)));
      // A download, never a page: the text is whatever a stranger sent.
      return reply
        .header("content-type", "text/plain; charset=utf-8")
        .header("content-disposition", contentDisposition(`message-${req.params.id}.eml`))
        .send(raw);
    },
  });
}
