import { billingApi } from "@cove/contract/billing-account.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as billing from "./billing.service.ts";
import { invoiceFileName, renderInvoicePdf } from "./invoice-pdf.ts";
import type { Payments } from "./payments.ts";

/** Billing is how a read-only organization gets out of it, so every billing route works while read-only. */
const config = { allowedWhenReadOnly: true } as const;

/** The service's view of one request: its provider and its tenant transactions. */
export const billingDeps = (app: FastifyInstance, req: FastifyRequest, payments: Payments): billing.BillingDeps => ({
  provider: payments.provider,
  tenant: (fn) => inRequest(app, req, fn),
});

/** Billing (admins: docs/product.md, "Roles"; the contract's billingApi): the plan, the card, invoices, the details. */
export async function billingRoutes(app: FastifyInstance, opts: { payments: Payments }) {
  const deps = (req: FastifyRequest) => billingDeps(app, req, opts.payments);

  addRoute(app, billingApi.config, {
    config,
    handler: (req) => inRequest(app, req, async () => billing.billingConfig(opts.payments.provider)),
  });

  addRoute(app, billingApi.subscription, {
    config,
    handler: (req) => billing.getSubscription(deps(req)),
  });

  addRoute(app, billingApi.subscribe, {
    config,
    handler: (req) => billing.subscribe(deps(req), req.body, "subscribe"),
  });

  addRoute(app, billingApi.cancel, {
    config,
    handler: (req) => billing.cancel(deps(req)),
  });

  addRoute(app, billingApi.resume, {
    config,
    handler: (req) => billing.resume(deps(req)),
  });

  addRoute(app, billingApi.planChangePreview, {
    config,
    handler: (req) => inRequest(app, req, (ctx) => billing.previewPlanChange(ctx, req.query.plan)),
  });

  addRoute(app, billingApi.changePlan, {
    config,
    handler: (req) => billing.changePlan(deps(req), req.body.plan),
  });

  addRoute(app, billingApi.paymentMethod, {
    config,
    handler: (req) => billing.updatePaymentMethod(deps(req), req.body.paymentMethodId),
  });

  addRoute(app, billingApi.invoices, {
    config,
    handler: (req) => inRequest(app, req, billing.listInvoices),
  });

  addRoute(app, billingApi.invoicePdf, {
    config,
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

  addRoute(app, billingApi.details, {
    config,
    handler: (req) => inRequest(app, req, billing.getBillingDetails),
  });

  addRoute(app, billingApi.saveDetails, {
    config,
    handler: (req) => inRequest(app, req, (ctx) => billing.saveBillingDetails(ctx, req.body)),
  });
}
