import { z } from "zod";
import { PLAN_IDS } from "./constants.ts";

/** Which card provider takes payments (PAYMENT_PROVIDER): Cove's own test-mode one, or Stripe. */
export const PAYMENT_PROVIDERS = ["test", "stripe"] as const;
export type PaymentProviderKind = (typeof PAYMENT_PROVIDERS)[number];

/** What the organization's subscription is, as Cove applies it (organizations.subscription_status). */
export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Why an organization is read-only: its trial ended unpaid, a renewal stayed unpaid past the grace period, or it was
 * canceled more than the full-access period ago. */
export const READ_ONLY_REASONS = ["trial_expired", "payment_overdue", "canceled"] as const;
export type ReadOnlyReason = (typeof READ_ONLY_REASONS)[number];

/** A failed renewal keeps full access this many days (with a banner), then the organization is read-only. */
export const PAYMENT_GRACE_DAYS = 7;
/** Canceled data (docs/product.md, "Plans and the trial"): full access for 30 days, read-only up to 90 days, then deleted. */
export const CANCELED_FULL_ACCESS_DAYS = 30;
export const CANCELED_DELETE_DAYS = 90;

export const planIdField = z.enum(PLAN_IDS, { error: "Plan must be starter, growth or business" });

/** Where the organization stands: full access, or read-only and why, with the dates that matter. */
export const accountAccess = z.object({
  read_only: z.boolean(),
  reason: z.enum(READ_ONLY_REASONS).nullable(),
  /** A person's sentence saying what is going on and what to do (the banner and every refused write say it). */
  message: z.string().nullable(),
  /** past_due: the end of the grace period. */
  grace_ends_at: z.iso.datetime().nullable(),
  /** canceled: when the data becomes read-only, and when it is deleted. */
  read_only_from: z.iso.datetime().nullable(),
  deletes_at: z.iso.datetime().nullable(),
});
export type AccountAccess = z.infer<typeof accountAccess>;

export const cardSummary = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type CardSummary = z.infer<typeof cardSummary>;

/**
 * Subscription response: plan; subscription with status and currentPeriodEnd (Unix seconds). The
 * subscription is null while there is none (on trial, or never subscribed); the other fields are Cove's additions.
 */
export const subscriptionAnswer = z.object({
  plan: z.enum(PLAN_IDS),
  plan_name: z.string(),
  subscription: z
    .object({
      status: z.string(),
      currentPeriodEnd: z.number().int().nullable(),
      cancel_at_period_end: z.boolean(),
      canceled_at: z.iso.datetime().nullable(),
    })
    .nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  trial_ends_at: z.iso.datetime().nullable(),
  card: cardSummary.nullable(),
  access: accountAccess,
  provider: z.enum(PAYMENT_PROVIDERS),
  /** The organization's time zone: the trial's end and the period's end are its days, as the trial banner counts them. */
  timezone: z.string(),
});
export type SubscriptionAnswer = z.infer<typeof subscriptionAnswer>;

const paymentMethodId = z
  .string({ error: "A payment method is required" })
  .trim()
  .min(3, "A payment method is required")
  .max(255, "The payment method is not valid")
  .regex(/^[A-Za-z0-9_]+$/, "The payment method is not valid");

/** POST /billing/subscribe with plan and paymentMethodId. */
export const subscribeBody = z.object({ plan: planIdField, paymentMethodId });
export type SubscribeBody = z.input<typeof subscribeBody>;

/** POST /trial/convert with paymentMethodId; the banner's offer is the Starter plan at $29/month. */
export const convertTrialBody = z.object({ paymentMethodId, plan: planIdField.optional().default("starter") });
export type ConvertTrialBody = z.input<typeof convertTrialBody>;

/** The answer to subscribe and convert: clientSecret when the card needs one more confirmation step. */
export const subscribeAnswer = z.object({
  status: z.enum(["active", "requires_confirmation"]),
  clientSecret: z.string().optional(),
  message: z.string(),
});
export type SubscribeAnswer = z.infer<typeof subscribeAnswer>;

export const changePlanBody = z.object({ plan: planIdField });

export const paymentMethodBody = z.object({ paymentMethodId });

export const invoice = z.object({
  id: z.string(),
  number: z.string().nullable(),
  /** In cents. */
  amount_due: z.number().int(),
  amount_paid: z.number().int(),
  currency: z.string(),
  status: z.string(),
  created_at: z.iso.datetime(),
  period_start: z.iso.datetime().nullable(),
  period_end: z.iso.datetime().nullable(),
  url: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoice>;
/** The organization's time zone comes with the list: an invoice's dates are its days, as on the invoice's PDF. */
export const invoiceListAnswer = z.object({ invoices: z.array(invoice), timezone: z.string() });

/** What the browser needs to load the card form. */
export const billingConfigAnswer = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  publishableKey: z.string().nullable(),
});
export type BillingConfigAnswer = z.infer<typeof billingConfigAnswer>;

/** The test provider's clock (like a card provider's test clocks): moves one organization's billing forward. */
export const advanceClockBody = z.object({
  days: z.number({ error: "Days must be a number" }).int("Days must be a whole number").min(1).max(400),
});

export const billingMessage = z.object({ message: z.string() });
