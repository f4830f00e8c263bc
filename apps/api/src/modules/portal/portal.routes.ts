import { portalApi } from "@cove/contract/portal.ts";
import type { FastifyInstance } from "fastify";
import { inRequest, portalCustomer } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { orgOfSlug } from "../../platform/organizations.ts";
import { addRoute } from "../../platform/routes.ts";
import { sendFile } from "../attachments/index.ts";
import { rateMyTicket } from "../csat/index.ts";
import * as service from "./portal.service.ts";
import { startDemoSession } from "./portal-demo.ts";
import { organizationBySlug, portalOrganization } from "./portal-organization.ts";
import { redeemSignInLink, requestSignInLink, signOut } from "./portal-sign-in.service.ts";

// Any id that is not one of the customer's tickets, malformed ones included, is simply not found.
const ticketId = (id: string) => recordId("Ticket", id);

/**
 * The customer portal (the contract's portalApi; docs/decisions/2026-11-25-customer-portal.md). Public routes know the
 * organization from its slug (/api/public/{org-slug}/portal/...); signed-in ones from the customer's token
 * (/api/portal/...).
 */
export async function portalRoutes(app: FastifyInstance) {
  const mail = { jobs: app.jobs, publicUrl: app.publicUrl };

  addRoute(app, portalApi.info, {
    handler: async (req) => ({
      organization: await portalOrganization(app.db, (await organizationBySlug(app.db, req.params.orgSlug)).id),
    }),
  });

  // A read-only organization's portal takes no new sign-ins (a link is a row and an email in its name, a first sign-in
  // a new contact); customers signed in already keep reading their tickets.
  addRoute(app, portalApi.signInLink, {
    config: { writesTo: orgOfSlug },
    handler: (req) =>
      requestSignInLink(app.db, mail, { orgSlug: req.params.orgSlug, email: req.body.email, ip: req.ip }),
  });

  addRoute(app, portalApi.session, {
    config: { writesTo: orgOfSlug, rateLimit: { max: 30, timeWindow: "15 minutes" } },
    handler: (req) => redeemSignInLink(app.db, { orgSlug: req.params.orgSlug, token: req.body.token }),
  });

  addRoute(app, portalApi.demoSession, {
    config: { rateLimit: { max: 20, timeWindow: "1 minute" } },
    handler: () => startDemoSession(app.db),
  });

  customerRoutes(app);
}

/** The portal's signed-in routes: each runs in the customer's own transaction (inRequest, "customer"). */
function customerRoutes(app: FastifyInstance) {
  // The contact role has no grant on the organization's settings; its branding is public anyway (the help center and
  // the portal's sign-in page show it), so it is read after the customer's own transaction, as for a visitor.
  const withBranding = async <T extends { orgId: string }>(work: Promise<T>) => {
    const { orgId, ...rest } = await work;
    return { ...rest, organization: await portalOrganization(app.db, orgId) };
  };

  addRoute(app, portalApi.me, {
    handler: (req) =>
      withBranding(
        inRequest(app, req, "customer", async (ctx) => {
          const customer = await service.me(ctx);
          return { customer, orgId: (await service.myOrganization(ctx)).id };
        }),
      ),
  });

  addRoute(app, portalApi.updateMe, {
    handler: (req) =>
      withBranding(
        inRequest(app, req, "customer", async (ctx) => {
          const customer = await service.updateMe(ctx, req.body);
          return { customer, orgId: (await service.myOrganization(ctx)).id };
        }),
      ),
  });

  addRoute(app, portalApi.signOut, {
    handler: async (req) => {
      // A staff token is refused here as on every customer route (403), before anything is read.
      const { sessionId } = portalCustomer(req);
      await inRequest(app, req, "customer", (ctx) => signOut(ctx, sessionId));
      return { message: "Signed out" };
    },
  });

  addRoute(app, portalApi.tickets, {
    handler: (req) => inRequest(app, req, "customer", (ctx) => service.listMyTickets(ctx, req.query)),
  });

  addRoute(app, portalApi.createTicket, {
    handler: async (req, reply) =>
      reply.status(201).send({
        ticket: await inRequest(app, req, "customer", (ctx) =>
          service.createMyTicket(ctx, req.body, app.attachmentLimits),
        ),
      }),
  });

  addRoute(app, portalApi.ticket, {
    handler: async (req) => ({
      ticket: await inRequest(app, req, "customer", (ctx) => service.getMyTicket(ctx, ticketId(req.params.id))),
    }),
  });

  addRoute(app, portalApi.reply, {
    handler: async (req, reply) =>
      reply.status(201).send({
        comment: await inRequest(app, req, "customer", (ctx) =>
          service.replyToMyTicket(ctx, ticketId(req.params.id), req.body, app.attachmentLimits),
        ),
      }),
  });

  addRoute(app, portalApi.rate, {
    handler: async (req) => ({
      satisfaction: await inRequest(app, req, "customer", (ctx) =>
        rateMyTicket(ctx, ticketId(req.params.id), req.body),
      ),
    }),
  });

  addRoute(app, portalApi.file, {
    handler: async (req, reply) => {
      // A customer reaches a file only through one of their tickets; any other id is simply not found.
      const ticket = recordId("Attachment", req.params.id);
      const fileId = recordId("Attachment", req.params.attachmentId);
      const file = await inRequest(app, req, "customer", (ctx) => service.myTicketFile(ctx, ticket, fileId));
      return sendFile(reply, file);
    },
  });
}
