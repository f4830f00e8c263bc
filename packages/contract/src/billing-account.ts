import { z } from "zod";
import { requiredText } from "./auth.ts";
import { planIdField } from "./billing.ts";
import { PLAN_IDS } from "./constants.ts";
import { defineRoute } from "./routes.ts";

/**
 * What the Billing page adds for a paying team: the billing details printed on invoices, and a change of plan's cost
 * before it is made. Apart from billing.ts, whose subscription and access schemas every signed-in page loads (the
 * trial banner), so these travel only with the Billing page.
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

/** The Billing page's own routes (admins), beside billingApi (billing.ts): a change of plan's cost, the billing details. */
export const billingAccountApi = {
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
