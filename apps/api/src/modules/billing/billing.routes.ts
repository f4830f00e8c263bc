import {
  billingConfigAnswer,
  billingMessage,
  changePlanBody,
  invoiceListAnswer,
  paymentMethodBody,
  subscribeAnswer,
  subscribeBody,
  subscriptionAnswer,
} from "@cove/contract/billing.ts";
import {
  billingDetailsAnswer,
  billingDetailsBody,
  planChangePreview,
  planChangePreviewQuery,
} from "@cove/contract/billing-account.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams } from "../../platform/ids.ts";
import * as billing from "./billing.service.ts";
import { invoiceFileName, renderInvoicePdf } from "./invoice-pdf.ts";
import type { Payments } from "./payments.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  402: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  502: errorSchema,
};
const tags = ["billing"];
/** Billing is for admins (docs/product.md, "Roles"), and it is how a read-only organization gets out of it. */
const config = { access: "admin", allowedWhenReadOnly: true } as const;

/** The service's view of one request: its provider and its tenant transactions. */
export const billingDeps = (app: FastifyInstance, req: FastifyRequest, payments: Payments): billing.BillingDeps => ({
  provider: payments.provider,
  tenant: (fn) => inRequest(app, req, fn),
});

export async function billingRoutes(fastify: FastifyInstance, opts: { payments: Payments }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (req: FastifyRequest) => billingDeps(app, req, opts.payments);

  app.get("/api/billing/config", {
    config,
    schema: {
      tags,
      summary: "Which card provider the payment form loads",
      response: { 200: billingConfigAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, async () => billing.billingConfig(opts.payments.provider)),
  });

  app.get("/api/billing/subscription", {
    config,
    schema: {
      tags,
      summary: "The plan, the subscription (status, currentPeriodEnd in Unix seconds), the card, read-only mode",
      response: { 200: subscriptionAnswer, ...errors },
    },
    handler: (req) => billing.getSubscription(deps(req)),
  });

  app.post("/api/billing/subscribe", {
    config,
    schema: {
      tags,
      summary: "Subscribe to a plan with a card created by the payment form (clientSecret: confirm it there)",
      body: subscribeBody,
      response: { 200: subscribeAnswer, ...errors },
    },
    handler: (req) => billing.subscribe(deps(req), req.body, "subscribe"),
  });

  app.post("/api/billing/cancel", {
    config,
    schema: {
      tags,
      summary: "Cancel the subscription at the end of the current period",
      response: { 200: billingMessage, ...errors },
    },
    handler: (req) => billing.cancel(deps(req)),
  });

  app.post("/api/billing/resume", {
    config,
    schema: {
      tags,
      summary: "Keep a subscription that was set to cancel at the end of the period",
      response: { 200: billingMessage, ...errors },
    },
    handler: (req) => billing.resume(deps(req)),
  });

  app.get("/api/billing/change-plan/preview", {
    config,
    schema: {
      tags,
      summary: "What a change of plan would cost: the new price and the proration of the rest of the period",
      querystring: planChangePreviewQuery,
      response: { 200: planChangePreview, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => billing.previewPlanChange(ctx, req.query.plan)),
  });

  app.post("/api/billing/change-plan", {
    config,
    schema: {
      tags,
      summary: "Move the subscription to another plan",
      body: changePlanBody,
      response: { 200: billingMessage, ...errors },
    },
    handler: (req) => billing.changePlan(deps(req), req.body.plan),
  });

  app.post("/api/billing/payment-method", {
    config,
    schema: {
      tags,
      summary: "Replace the subscription's card; an overdue invoice is paid with it at once",
      body: paymentMethodBody,
      response: { 200: billingMessage, ...errors },
    },
    handler: (req) => billing.updatePaymentMethod(deps(req), req.body.paymentMethodId),
  });

  app.get("/api/billing/invoices", {
    config,
    schema: {
      tags,
      summary: "Invoices, newest first, with amounts in cents",
      response: { 200: invoiceListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, billing.listInvoices),
  });

  app.get("/api/billing/invoices/:id/pdf", {
    config,
    schema: {
      tags,
      summary: "One invoice as a PDF, addressed with the organization's billing details",
      params: idParams,
      response: { 200: z.unknown().describe("A PDF file (application/pdf)"), ...errors },
    },
    handler: async (req, reply) => {
      // The invoice is read in the request's transaction; the PDF is written after it, as it streams out.
      const doc = await inRequest(app, req, (ctx) => billing.invoiceDocument(ctx, req.params.id));
      return reply
        .type("application/pdf")
        .header("content-disposition", contentDisposition(invoiceFileName(doc)))
        .header("cache-control", "private, no-store")
        .send(renderInvoicePdf(doc));
    },
  });

  app.get("/api/billing/details", {
    config,
    schema: {
      tags,
      summary: "Who the invoices are addressed to (until saved: the organization's name and the card's address)",
      response: { 200: billingDetailsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, billing.getBillingDetails),
  });

  app.put("/api/billing/details", {
    config,
    schema: {
      tags,
      summary: "Set the billing name, address and tax ID printed on every invoice",
      body: billingDetailsBody,
      response: { 200: billingDetailsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => billing.saveBillingDetails(ctx, req.body)),
  });
}
