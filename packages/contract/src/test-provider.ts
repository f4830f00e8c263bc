import { z } from "zod";
import { advanceClockBody, billingMessage } from "./billing.ts";
import { defineRoute } from "./routes.ts";

/**
 * The test provider's own calls (PAYMENT_PROVIDER=test only; docs/decisions/2026-11-25-billing-providers.md): Cove's
 * test payment form turns a test card into a payment method and answers a payment's extra confirmation step, and a
 * clock moves one organization's billing forward. Apart from billing.ts, so they travel with the payment form only.
 */

const digits = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(max, `${label} is not valid`);

/** A test card as the form sends it (the names a card provider's API uses). Its number is checked and dropped. */
export const testCardBody = z.object({
  number: digits("Card number", 30),
  exp_month: z
    .number({ error: "Expiry month is required" })
    .int()
    .min(1, "Your card's expiration month is invalid.")
    .max(12, "Your card's expiration month is invalid."),
  exp_year: z.number({ error: "Expiry year is required" }).int().min(0).max(9999),
  cvc: digits("Security code", 4),
  name: z.string().trim().max(120).nullable().optional(),
  address: z
    .object({
      line1: z.string().trim().max(200).nullable().optional(),
      city: z.string().trim().max(100).nullable().optional(),
      postal_code: z.string().trim().max(20).nullable().optional(),
      country: z.string().trim().max(2).nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type TestCardBody = z.input<typeof testCardBody>;

/** The payment method made from a test card: only its brand, last 4 digits and expiry are kept. */
export const testPaymentMethodAnswer = z.object({
  id: z.string(),
  card: z.object({ brand: z.string(), last4: z.string(), expMonth: z.number(), expYear: z.number() }),
});

export const confirmPaymentBody = z.object({
  client_secret: z.string().min(10).max(200),
  outcome: z.enum(["complete", "fail"], { error: "Outcome must be complete or fail" }),
});
export const confirmPaymentAnswer = z.object({ status: z.literal("succeeded") });

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["test payments"];

/** Admins only, as the Billing page is (docs/product.md, "Roles"). */
export const testProviderApi = {
  createPaymentMethod: defineRoute({
    method: "POST",
    path: "/api/test-provider/payment-methods",
    summary: "Create a payment method from a test card",
    tags,
    access: "admin",
    body: testCardBody,
    answers: { 200: testPaymentMethodAnswer },
    // A declined or invalid test card, with the provider's own words.
    errors: ["PAYMENT_FAILED"],
  }),
  confirmPayment: defineRoute({
    method: "POST",
    path: "/api/test-provider/confirm",
    summary: "Complete (or fail) the extra confirmation step a payment asked for",
    tags,
    access: "admin",
    body: confirmPaymentBody,
    answers: { 200: confirmPaymentAnswer },
    // The step failed, or the payment is unknown or was given up for a newer one.
    errors: ["PAYMENT_FAILED"],
  }),
  advanceClock: defineRoute({
    method: "POST",
    path: "/api/test-provider/clock/advance",
    summary: "Move this organization's billing forward by some days: trial end, renewals, grace, cancellation",
    tags,
    access: "admin",
    body: advanceClockBody,
    answers: { 200: billingMessage },
  }),
};
