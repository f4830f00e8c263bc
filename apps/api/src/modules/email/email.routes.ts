import { originalEmailAnswer, ticketEmailsAnswer, unfiledMailAnswer } from "@cove/contract/email.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import { type EmailChannelOptions, registerEmailChannel } from "./email.handlers.ts";
import { listUnfiled, originalEmail, ticketEmails, unfiledRaw } from "./email.queries.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const tags = ["email"];

/** The email channel: its event consumers, and what the receiver kept without filing, for admins. */
export async function emailRoutes(fastify: FastifyInstance, opts: EmailChannelOptions & { publicUrl: string }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerEmailChannel(app, opts, opts.publicUrl);

  app.get("/api/email/unfiled", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "The latest inbound messages kept without filing (bounces, auto-replies, unreadable), with why",
      response: { 200: unfiledMailAnswer, ...errors },
    },
    handler: async (req) => ({ messages: await inRequest(app, req, listUnfiled) }),
  });

  app.get("/api/tickets/:id/emails", {
    config: { access: "authenticated" },
    schema: {
      tags,
      summary: "The emails received on a ticket (its first message has no comment), and which have HTML",
      params: idParams,
      response: { 200: ticketEmailsAnswer, ...errors },
    },
    handler: async (req) => ({
      emails: await inRequest(app, req, (ctx) => ticketEmails(ctx, recordId("Ticket", req.params.id))),
    }),
  });

  app.get("/api/email/messages/:id", {
    config: { access: "authenticated" },
    schema: {
      tags,
      summary: "A received email as it came: its HTML is a stranger's, to be sanitized and framed by whoever shows it",
      params: idParams,
      response: { 200: originalEmailAnswer, ...errors },
    },
    handler: async (req) => ({
      email: await inRequest(app, req, (ctx) => originalEmail(ctx, recordId("Email", req.params.id))),
    }),
  });

  app.get("/api/email/unfiled/:id/raw", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "The raw text kept of an unfiled message, as a download",
      params: idParams,
      response: { 200: z.string().describe("The message as received (text/plain)"), ...errors },
    },
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
