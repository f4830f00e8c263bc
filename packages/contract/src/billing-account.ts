import { z } from "zod";
import { requiredText } from "./auth.ts";
import {
  billingConfigAnswer,
  billingMessage,
  changePlanBody,
  invoiceListAnswer,
  paymentMethodBody,
  planIdField,
  subscribeAnswer,
  subscribeBody,
  subscriptionAnswer,
} from "./billing.ts";
import { PLAN_IDS } from "./constants.ts";
import { defineRoute, idParams } from "./routes.ts";

/**
 * What the Billing page adds for a paying team: the billing details printed on invoices, a change of plan's cost
 * before it is made, and the billing routes' tables (billingApi; billingWebhookApi, which the web never calls). Apart
 * from billing.ts, whose subscription and access schemas every signed-in page loads (the trial banner), so these
 * travel only with the Billing page.
 */

export const planChangePreviewQuery = z.object({ plan: planIdField });

/**
 * What a change of plan does to the money, before it is made: the new plan's monthly price, and the proration of the
 * rest of the current period (cents: positive is added to the next invoice, negative is a credit on it). Nothing is
 * charged at the change itself (docs/decisions/2026-11-29-billing-first-week.md).
 */
export const planChangePreview = z.object({
  plan: z.enum(PLAN_IDS),
  plan_name: z.string(),
  /** The new plan's monthly price, in cents. */
  price: z.number().int(),
  current_plan: z.enum(PLAN_IDS),
  current_plan_name: z.string(),
  proration: z.number().int(),
  currency: z.string(),
  /** The end of the current period: the date of the next invoice, which carries the proration. */
  next_invoice_at: z.iso.datetime().nullable(),
});
export type PlanChangePreview = z.infer<typeof planChangePreview>;

const noNul = (s: string) => !s.includes("\u0000");
/** An optional single-line field of the billing address: trimmed, and blank means not given. */
const optionalLine = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(noNul, `${label} contains an invalid character`)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/** Who the organization's invoices are addressed to (the Billing page's Billing details; printed on each PDF). */
export const billingDetailsBody = z.object({
  name: requiredText("Billing name", 200),
  address_line1: optionalLine("Address", 200),
  address_line2: optionalLine("Address line 2", 200),
  city: optionalLine("City", 100),
  region: optionalLine("State or region", 100),
  postal_code: optionalLine("Postal code", 20),
  country: z
    .string({ error: "Country must be a two-letter country code, such as US or GB" })
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{2})?$/, "Country must be a two-letter country code, such as US or GB")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  tax_id: optionalLine("Tax ID", 50),
});
export type BillingDetailsBody = z.input<typeof billingDetailsBody>;

export const billingDetails = z.object({
  name: z.string(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
  tax_id: z.string().nullable(),
});
export type BillingDetails = z.infer<typeof billingDetails>;

/**
 * The billing details, and whether an admin saved them: until then they are the organization's name and the card's
 * billing address, which is what the invoices show.
 */
export const billingDetailsAnswer = z.object({ details: billingDetails, saved: z.boolean() });
export type BillingDetailsAnswer = z.infer<typeof billingDetailsAnswer>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["billing"];

/**
 * Billing (admins: docs/product.md, "Roles"): the plan, the card, invoices, a change of plan's cost, the billing
 * details. Here, not in billing.ts, so the table too travels with the Billing page only. A call that reaches the card
 * provider can fail there (PAYMENT_FAILED: the card or the payment; PAYMENT_PROVIDER_ERROR: the provider itself).
 */
export const billingApi = {
  config: defineRoute({
    method: "GET",
    path: "/api/billing/config",
    summary: "Which card provider the payment form loads",
    tags,
    access: "admin",
    answers: { 200: billingConfigAnswer },
  }),
  subscription: defineRoute({
    method: "GET",
    path: "/api/billing/subscription",
    summary: "The plan, the subscription (status, currentPeriodEnd in Unix seconds), the card, read-only mode",
    tags,
    access: "admin",
    answers: { 200: subscriptionAnswer },
    // A payment waiting for its confirmation step is read again from the provider.
    errors: ["PAYMENT_PROVIDER_ERROR"],
  }),
  subscribe: defineRoute({
    method: "POST",
    path: "/api/billing/subscribe",
    summary: "Subscribe to a plan with a card created by the payment form (clientSecret: confirm it there)",
    tags,
    access: "admin",
    body: subscribeBody,
    answers: { 200: subscribeAnswer },
    // Already subscribed, or a payment under way; a plan with fewer seats than the team holds.
    errors: ["CONFLICT", "SEAT_LIMIT", "PAYMENT_FAILED", "PAYMENT_PROVIDER_ERROR"],
  }),
  cancel: defineRoute({
    method: "POST",
    path: "/api/billing/cancel",
    summary: "Cancel the subscription at the end of the current period",
    tags,
    access: "admin",
    answers: { 200: billingMessage },
    // No subscription yet.
    errors: ["CONFLICT", "PAYMENT_PROVIDER_ERROR"],
  }),
  resume: defineRoute({
    method: "POST",
    path: "/api/billing/resume",
    summary: "Keep a subscription that was set to cancel at the end of the period",
    tags,
    access: "admin",
    answers: { 200: billingMessage },
    errors: ["CONFLICT", "PAYMENT_PROVIDER_ERROR"],
  }),
  planChangePreview: defineRoute({
    method: "GET",
    path: "/api/billing/change-plan/preview",
    summary: "What a change of plan would cost: the new price and the proration of the rest of the period",
    tags,
    access: "admin",
    query: planChangePreviewQuery,
    answers: { 200: planChangePreview },
    // The same checks as the change: no subscription yet, or already on that plan; too few seats for the team.
    errors: ["CONFLICT", "SEAT_LIMIT"],
  }),
  changePlan: defineRoute({
    method: "POST",
    path: "/api/billing/change-plan",
    summary: "Move the subscription to another plan",
    tags,
    access: "admin",
    body: changePlanBody,
    answers: { 200: billingMessage },
    // No subscription yet, or already on that plan; a plan with fewer seats than the team holds.
    errors: ["CONFLICT", "SEAT_LIMIT", "PAYMENT_PROVIDER_ERROR"],
  }),
  paymentMethod: defineRoute({
    method: "POST",
    path: "/api/billing/payment-method",
    summary: "Replace the subscription's card; an overdue invoice is paid with it at once",
    tags,
    access: "admin",
    body: paymentMethodBody,
    answers: { 200: billingMessage },
    errors: ["CONFLICT", "PAYMENT_FAILED", "PAYMENT_PROVIDER_ERROR"],
  }),
  invoices: defineRoute({
    method: "GET",
    path: "/api/billing/invoices",
    summary: "Invoices, newest first, with amounts in cents",
    tags,
    access: "admin",
    answers: { 200: invoiceListAnswer },
  }),
  invoicePdf: defineRoute({
    method: "GET",
    path: "/api/billing/invoices/:id/pdf",
    summary: "One invoice as a PDF, addressed with the organization's billing details",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: z.unknown().describe("A PDF file (application/pdf)") },
  }),
  details: defineRoute({
    method: "GET",
    path: "/api/billing/details",
    summary: "Who the invoices are addressed to (until saved: the organization's name and the card's address)",
    tags,
    access: "admin",
    answers: { 200: billingDetailsAnswer },
  }),
  saveDetails: defineRoute({
    method: "PUT",
    path: "/api/billing/details",
    summary: "Set the billing name, address and tax ID printed on every invoice",
    tags,
    access: "admin",
    body: billingDetailsBody,
    answers: { 200: billingDetailsAnswer },
  }),
};

/** The answer to the provider's webhook: the event was taken (duplicate: it had been delivered before). */
export const webhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * The payment provider's webhook (public: the provider signs each event, and the signature is checked over the exact
 * bytes sent, so the route reads its body raw and declares no body schema).
 */
export const billingWebhookApi = {
  event: defineRoute({
    method: "POST",
    path: "/api/billing/webhook",
    summary: "Payment provider events (signed): payment succeeded or failed, subscription updated or canceled",
    description:
      "The signature is checked (Stripe-Signature with Stripe, cove-test-signature with the test provider); a bad " +
      "one answers 400. An event delivered again is acknowledged and not applied twice.",
    tags,
    access: "public",
    answers: { 200: webhookAnswer },
    // A missing, wrong or stale signature; the provider could not be reached to read the event's subscription.
    errors: ["BAD_REQUEST", "PAYMENT_PROVIDER_ERROR"],
  }),
};
