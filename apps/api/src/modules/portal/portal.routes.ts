import { messageAnswer } from "@cove/contract/auth.ts";
import { rateBody, satisfactionAnswer } from "@cove/contract/csat.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  createPortalTicketBody,
  customerCommentAnswer,
  customerTicketAnswer,
  customerTicketListAnswer,
  customerTicketListQuery,
  portalInfoAnswer,
  portalMeAnswer,
  portalReplyBody,
  portalSessionAnswer,
  portalSessionBody,
  signInLinkAnswer,
  signInLinkBody,
  updatePortalMeBody,
} from "@cove/contract/portal.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest, portalCustomer } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import { orgOfSlug } from "../../platform/organizations.ts";
import { sendFile } from "../attachments/index.ts";
import { rateMyTicket } from "../csat/index.ts";
import * as service from "./portal.service.ts";
import { startDemoSession } from "./portal-demo.ts";
import { organizationBySlug, portalOrganization } from "./portal-organization.ts";
import { redeemSignInLink, requestSignInLink, signOut } from "./portal-sign-in.service.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
const tags = ["customer portal"];
const orgParams = z.object({ orgSlug: z.string().max(200) });
const fileParams = z.object({ id: z.string(), attachmentId: z.string() });
// Any id that is not one of the customer's tickets, malformed ones included, is simply not found.
const ticketParams = idParams;
const ticketId = (id: string) => recordId("Ticket", id);

/** Routes a signed-in customer (a contact) calls: staff tokens are refused by them, as contacts are by staff routes. */
const customer = { access: "authenticated", actors: ["contact"] } as const;

/**
 * The customer portal (docs/decisions/2026-11-25-customer-portal.md). Public routes know the organization from its
 * slug (/api/public/{org-slug}/portal/...); signed-in ones from the customer's token (/api/portal/...).
 */
export async function portalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const mail = { jobs: app.jobs, publicUrl: app.publicUrl };

  app.get("/api/public/:orgSlug/portal", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "A portal's organization: its name and branding",
      params: orgParams,
      response: { 200: portalInfoAnswer, ...errors },
    },
    handler: async (req) => ({
      organization: await portalOrganization(app.db, (await organizationBySlug(app.db, req.params.orgSlug)).id),
    }),
  });

  // A read-only organization's portal takes no new sign-ins (a link is a row and an email in its name, a first sign-in
  // a new contact); customers signed in already keep reading their tickets.
  app.post("/api/public/:orgSlug/portal/sign-in-link", {
    config: { access: "public", writesTo: orgOfSlug },
    schema: {
      tags,
      summary: "Email a single-use sign-in link (the same answer whether or not the email is known; throttled)",
      params: orgParams,
      body: signInLinkBody,
      response: { 200: signInLinkAnswer, ...errors },
    },
    handler: (req) =>
      requestSignInLink(app.db, mail, { orgSlug: req.params.orgSlug, email: req.body.email, ip: req.ip }),
  });

  app.post("/api/public/:orgSlug/portal/session", {
    config: { access: "public", writesTo: orgOfSlug, rateLimit: { max: 30, timeWindow: "15 minutes" } },
    schema: {
      tags,
      summary: "Sign in with a sign-in link's token (it works once)",
      params: orgParams,
      body: portalSessionBody,
      response: { 200: portalSessionAnswer, ...errors },
    },
    handler: (req) => redeemSignInLink(app.db, { orgSlug: req.params.orgSlug, token: req.body.token }),
  });

  app.post("/api/portal/demo-session", {
    config: { access: "public", rateLimit: { max: 20, timeWindow: "1 minute" } },
    schema: {
      tags,
      summary: "Sign in to the demo organization's portal as its demo customer (/customer-portal)",
      response: { 200: portalSessionAnswer, ...errors },
    },
    handler: () => startDemoSession(app.db),
  });

  customerRoutes(fastify);
}

/** The portal's signed-in routes: each runs in the customer's own transaction (inRequest, "customer"). */
function customerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The contact role has no grant on the organization's settings; its branding is public anyway (the help center and
  // the portal's sign-in page show it), so it is read after the customer's own transaction, as for a visitor.
  const withBranding = async <T extends { orgId: string }>(work: Promise<T>) => {
    const { orgId, ...rest } = await work;
    return { ...rest, organization: await portalOrganization(app.db, orgId) };
  };

  app.get("/api/portal/me", {
    config: customer,
    schema: { tags, summary: "The signed-in customer", response: { 200: portalMeAnswer, ...errors } },
    handler: (req) =>
      withBranding(
        inRequest(app, req, "customer", async (ctx) => {
          const [customer, org] = await Promise.all([service.me(ctx), service.myOrganization(ctx)]);
          return { customer, orgId: org.id };
        }),
      ),
  });

  app.put("/api/portal/me", {
    config: customer,
    schema: {
      tags,
      summary: "Change your name and company",
      body: updatePortalMeBody,
      response: { 200: portalMeAnswer, ...errors },
    },
    handler: (req) =>
      withBranding(
        inRequest(app, req, "customer", async (ctx) => {
          const customer = await service.updateMe(ctx, req.body);
          return { customer, orgId: (await service.myOrganization(ctx)).id };
        }),
      ),
  });

  app.post("/api/portal/sign-out", {
    config: customer,
    schema: { tags, summary: "Sign out: ends this session", response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      // A staff token is refused here as on every customer route (403), before anything is read.
      const { sessionId } = portalCustomer(req);
      await inRequest(app, req, "customer", (ctx) => signOut(ctx, sessionId));
      return { message: "Signed out" };
    },
  });

  app.get("/api/portal/tickets", {
    config: customer,
    schema: {
      tags,
      summary: "Your tickets, most recently updated first",
      querystring: customerTicketListQuery,
      response: { 200: customerTicketListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, "customer", (ctx) => service.listMyTickets(ctx, req.query)),
  });

  app.post("/api/portal/tickets", {
    config: customer,
    schema: {
      tags,
      summary: "Submit a ticket (it starts open)",
      body: createPortalTicketBody,
      response: { 201: customerTicketAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({
        ticket: await inRequest(app, req, "customer", (ctx) =>
          service.createMyTicket(ctx, req.body, app.attachmentLimits),
        ),
      }),
  });

  app.get("/api/portal/tickets/:id", {
    config: customer,
    schema: {
      tags,
      summary: "One of your tickets with its public conversation",
      params: ticketParams,
      response: { 200: customerTicketAnswer, ...errors },
    },
    handler: async (req) => ({
      ticket: await inRequest(app, req, "customer", (ctx) => service.getMyTicket(ctx, ticketId(req.params.id))),
    }),
  });

  app.post("/api/portal/tickets/:id/comments", {
    config: customer,
    schema: {
      tags,
      summary: "Reply (a solved or pending ticket opens again)",
      params: ticketParams,
      body: portalReplyBody,
      response: { 201: customerCommentAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({
        comment: await inRequest(app, req, "customer", (ctx) =>
          service.replyToMyTicket(ctx, ticketId(req.params.id), req.body, app.attachmentLimits),
        ),
      }),
  });

  app.put("/api/portal/tickets/:id/satisfaction", {
    config: customer,
    schema: {
      tags,
      summary: "Rate a solved ticket: good or bad, with an optional comment (changeable for 7 days)",
      params: ticketParams,
      body: rateBody,
      response: { 200: satisfactionAnswer, ...errors },
    },
    handler: async (req) => ({
      satisfaction: await inRequest(app, req, "customer", (ctx) =>
        rateMyTicket(ctx, ticketId(req.params.id), req.body),
      ),
    }),
  });

  app.get("/api/portal/tickets/:id/attachments/:attachmentId", {
    config: customer,
    schema: {
      tags,
      summary: "A file of your ticket's conversation: shown inline when a safe image, else a download",
      params: fileParams,
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) => {
      // A customer reaches a file only through one of their tickets; any other id is simply not found.
      const ticket = recordId("Attachment", req.params.id);
      const fileId = recordId("Attachment", req.params.attachmentId);
      const file = await inRequest(app, req, "customer", (ctx) => service.myTicketFile(ctx, ticket, fileId));
      return sendFile(reply, file);
    },
  });
}
