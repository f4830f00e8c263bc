import type { PaymentProviderKind } from "@cove/contract/billing.ts";
import type { PlanId } from "@cove/contract/constants.ts";
import { AppError } from "../../platform/errors.ts";

/**
 * One interface over the card providers (PAYMENT_PROVIDER): Cove's own test provider and Stripe. Cove asks the
 * provider for the truth (a webhook only says that something changed), so events may come twice or out of order.
 * Every method is called outside any database transaction: they may take a network round trip.
 */

/** What Cove keeps of a card (privacy policy): brand, last 4 digits, expiry, and the billing name and address. */
export interface ProviderCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  billingName: string | null;
  billingAddress: Record<string, string | null> | null;
}

export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** The provider's own status: active, trialing, past_due, unpaid, incomplete, incomplete_expired, canceled. */
  status: string;
  plan: PlanId | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  latestInvoiceId: string | null;
}

export interface ProviderInvoice {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  number: string | null;
  amountDue: number;
  amountPaid: number;
  currency: string;
  /** draft, open, paid, void, uncollectible. */
  status: string;
  created: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  url: string | null;
  /** What the amount is made of (the plan's period, a plan change's proration or credit), in cents. */
  lines: { description: string; amount: number }[];
}

/** A verified webhook event, reduced to what Cove needs: which object to read again. */
export interface ProviderEvent {
  id: string;
  type: string;
  object: { kind: "subscription" | "invoice"; id: string } | null;
}

export interface CreatedSubscription {
  subscription: ProviderSubscription;
  /** Set when the first payment needs one more step in the browser (e.g. 3-D Secure). */
  clientSecret: string | null;
}

export interface PaymentProvider {
  kind: PaymentProviderKind;
  /** For the browser's card form (Stripe.js); null for the test provider. */
  publishableKey: string | null;
  createCustomer(input: { orgId: string; name: string; email: string }): Promise<string>;
  /** Attaches a card created in the browser to the customer and makes it the default; a refused card throws PAYMENT_FAILED. */
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<ProviderCard>;
  createSubscription(input: {
    orgId: string;
    customerId: string;
    plan: PlanId;
    paymentMethodId: string;
  }): Promise<CreatedSubscription>;
  retrieveSubscription(id: string): Promise<ProviderSubscription>;
  updateSubscription(
    id: string,
    change: { cancelAtPeriodEnd?: boolean; plan?: PlanId; paymentMethodId?: string },
  ): Promise<ProviderSubscription>;
  /**
   * Ends a subscription at once (the organization is being deleted, or a payment never confirmed is given up). One
   * whose first payment never went through also has that invoice voided: an attempt that never completed is not owed.
   */
  cancelNow(id: string): Promise<void>;
  /** Tries the subscription's unpaid invoices again with its current card (after the card changed). */
  payOpenInvoices(subscriptionId: string): Promise<void>;
  retrieveInvoice(id: string): Promise<ProviderInvoice>;
  /** Checks the signature of a webhook delivery; a bad one throws BAD_REQUEST (400). */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<ProviderEvent>;
}

/** The provider refused the card or the payment: its own message goes to the person (docs/product.md, "Messages"). */
export const paymentFailed = (message: string | undefined) =>
  new AppError("PAYMENT_FAILED", message && message.length > 0 ? message : "Payment failed");

export const providerError = (detail: string) =>
  new AppError(
    "PAYMENT_PROVIDER_ERROR",
    `The payment provider could not complete the request (${detail}). Nothing was charged; please try again in a moment.`,
  );

export const badSignature = () =>
  new AppError("BAD_REQUEST", "The webhook's signature is missing or does not match: the event was not applied.");
