import { PLAN_IDS, PLANS, type PlanId } from "@cove/contract/constants.ts";
import Stripe from "stripe";
import { AppError } from "../../platform/errors.ts";
import {
  badSignature,
  type PaymentProvider,
  type ProviderCard,
  type ProviderInvoice,
  type ProviderSubscription,
  paymentFailed,
  providerError,
} from "./provider.ts";

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Tests point the SDK at a local server that speaks Stripe's API; unset, it talks to Stripe. */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

/** Each plan's monthly price is found (or created once) by this lookup key, so no price id needs configuring. */
const lookupKey = (plan: PlanId) => `cove_${plan}_monthly`;

const fromUnix = (s: number | null | undefined) => (s ? new Date(s * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  value === null || value === undefined ? null : typeof value === "string" ? value : value.id;

/** Stripe's errors as Cove's: a card the bank refused is the person's to fix; anything else is the provider's. */
function translate(err: unknown): never {
  if (err instanceof AppError) throw err;
  if (err instanceof Stripe.errors.StripeCardError) throw paymentFailed(err.message);
  if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === "resource_missing") {
    throw paymentFailed("That card could not be found: enter it again.");
  }
  if (err instanceof Stripe.errors.StripeError) throw providerError(err.type);
  throw providerError(err instanceof Error ? err.message : "unknown error");
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    translate(err);
  }
}

/** The card a payment method holds, as billing keeps it; any other kind of method is refused. */
function toCard(method: Stripe.PaymentMethod): ProviderCard {
  const card = method.card;
  if (!card) throw paymentFailed("Only cards are accepted.");
  const address = method.billing_details.address;
  return {
    brand: card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    billingName: method.billing_details.name,
    billingAddress: address
      ? {
          line1: address.line1,
          line2: address.line2,
          city: address.city,
          state: address.state,
          postal_code: address.postal_code,
          country: address.country,
        }
      : null,
  };
}

/** A Stripe invoice as billing keeps it (id is the one asked for, should Stripe leave it out). */
function toInvoice(i: Stripe.Invoice, id: string): ProviderInvoice {
  return {
    id: i.id ?? id,
    customerId: idOf(i.customer) ?? "",
    subscriptionId: idOf(i.parent?.subscription_details?.subscription ?? null),
    number: i.number,
    amountDue: i.amount_due,
    amountPaid: i.amount_paid,
    currency: i.currency,
    status: i.status ?? "draft",
    created: new Date(i.created * 1000),
    periodStart: fromUnix(i.period_start),
    periodEnd: fromUnix(i.period_end),
    url: i.hosted_invoice_url ?? null,
    // The first page of lines comes with the invoice; that is every line of a one-plan subscription's invoice.
    lines: (i.lines?.data ?? []).map((line) => ({
      description: line.description ?? "Cove subscription",
      amount: line.amount,
    })),
  };
}

export function createStripeProvider(config: StripeConfig): PaymentProvider {
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(config.api ?? {}),
  });
  let prices: Promise<Map<PlanId, string>> | null = null;

  async function loadPrices(): Promise<Map<PlanId, string>> {
    const found = await stripe.prices.list({ lookup_keys: PLAN_IDS.map(lookupKey), active: true, limit: 10 });
    const byPlan = new Map<PlanId, string>();
    for (const price of found.data) {
      const plan = PLAN_IDS.find((p) => lookupKey(p) === price.lookup_key);
      if (plan) byPlan.set(plan, price.id);
    }
    for (const plan of PLAN_IDS) {
      if (byPlan.has(plan)) continue;
      const created = await stripe.prices.create({
        currency: "usd",
        unit_amount: PLANS[plan].price * 100,
        recurring: { interval: "month" },
        lookup_key: lookupKey(plan),
        product_data: { name: `Cove ${PLANS[plan].name}` },
      });
      byPlan.set(plan, created.id);
    }
    return byPlan;
  }

  async function priceOf(plan: PlanId): Promise<string> {
    prices ??= loadPrices().catch((err) => {
      prices = null;
      throw err;
    });
    const id = (await prices).get(plan);
    if (!id) throw providerError(`no price for the ${plan} plan`);
    return id;
  }

  async function planOfPrice(priceId: string | null, lookup: string | null): Promise<PlanId | null> {
    const byKey = PLAN_IDS.find((p) => lookupKey(p) === lookup);
    if (byKey) return byKey;
    if (!priceId) return null;
    for (const [plan, id] of await (prices ?? loadPrices())) if (id === priceId) return plan;
    return null;
  }

  async function toSubscription(sub: Stripe.Subscription): Promise<ProviderSubscription> {
    const item = sub.items.data[0];
    return {
      id: sub.id,
      customerId: idOf(sub.customer) ?? "",
      status: sub.status,
      plan: await planOfPrice(item?.price.id ?? null, item?.price.lookup_key ?? null),
      // Since API version 2025-03-31 the period is on the subscription's items.
      currentPeriodStart: fromUnix(item?.current_period_start),
      currentPeriodEnd: fromUnix(item?.current_period_end),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      endedAt: fromUnix(sub.ended_at),
      latestInvoiceId: idOf(sub.latest_invoice),
    };
  }

  return {
    kind: "stripe",
    publishableKey: config.publishableKey,

    createCustomer: ({ orgId, name, email }) =>
      call(async () => (await stripe.customers.create({ name, email, metadata: { organization_id: orgId } })).id),

    attachPaymentMethod: (customerId, paymentMethodId) =>
      call(async () => {
        const method = await stripe.paymentMethods.attach(paymentMethodId, { customer: customerId });
        await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: method.id } });
        return toCard(method);
      }),

    createSubscription: ({ orgId, customerId, plan, paymentMethodId }) =>
      call(async () => {
        const sub = await stripe.subscriptions.create({
          customer: customerId,
          items: [{ price: await priceOf(plan) }],
          default_payment_method: paymentMethodId,
          // The first payment is tried at once; one that needs the cardholder (3-D Secure) leaves the subscription
          // incomplete, and its payment's client secret goes to the browser to confirm.
          payment_behavior: "allow_incomplete",
          metadata: { organization_id: orgId, plan },
          expand: ["latest_invoice.confirmation_secret"],
        });
        const invoice = typeof sub.latest_invoice === "object" ? sub.latest_invoice : null;
        const clientSecret = sub.status === "incomplete" ? (invoice?.confirmation_secret?.client_secret ?? null) : null;
        if (sub.status === "incomplete" && !clientSecret) {
          await stripe.subscriptions.cancel(sub.id);
          throw paymentFailed(undefined);
        }
        return { subscription: await toSubscription(sub), clientSecret };
      }),

    retrieveSubscription: (id) => call(async () => toSubscription(await stripe.subscriptions.retrieve(id))),

    updateSubscription: (id, change) =>
      call(async () => {
        const params: Stripe.SubscriptionUpdateParams = {};
        if (change.cancelAtPeriodEnd !== undefined) params.cancel_at_period_end = change.cancelAtPeriodEnd;
        if (change.paymentMethodId) params.default_payment_method = change.paymentMethodId;
        if (change.plan) {
          const current = await stripe.subscriptions.retrieve(id);
          const item = current.items.data[0];
          params.items = [{ ...(item ? { id: item.id } : {}), price: await priceOf(change.plan) }];
          params.proration_behavior = "create_prorations";
          params.metadata = { plan: change.plan };
        }
        return toSubscription(await stripe.subscriptions.update(id, params));
      }),

    cancelNow: (id) =>
      call(async () => {
        const before = await stripe.subscriptions.retrieve(id);
        if (before.status === "canceled" || before.status === "incomplete_expired") return;
        const ended = await stripe.subscriptions.cancel(id);
        // Stripe stops collecting a canceled subscription's invoices but leaves them open. The first invoice of one
        // that never started (its payment was never confirmed) is voided, so it is not owed and cannot be paid later.
        const invoiceId = idOf(ended.latest_invoice);
        if (before.status !== "incomplete" || !invoiceId) return;
        const invoice = await stripe.invoices.retrieve(invoiceId);
        if (invoice.status === "open") await stripe.invoices.voidInvoice(invoiceId);
      }),

    payOpenInvoices: (subscriptionId) =>
      call(async () => {
        const open = await stripe.invoices.list({ subscription: subscriptionId, status: "open", limit: 10 });
        for (const invoice of open.data) if (invoice.id) await stripe.invoices.pay(invoice.id);
      }),

    retrieveInvoice: (id) => call(async () => toInvoice(await stripe.invoices.retrieve(id), id)),

    async verifyWebhook(rawBody, headers) {
      const header = headers["stripe-signature"];
      const signature = Array.isArray(header) ? header[0] : header;
      if (!signature) throw badSignature();
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret);
      } catch {
        throw badSignature();
      }
      const object = event.data.object as { id?: string; object?: string };
      const kind = object.object === "subscription" || object.object === "invoice" ? object.object : null;
      return {
        id: event.id,
        type: event.type,
        object: kind && typeof object.id === "string" ? { kind, id: object.id } : null,
      };
    },
  };
}
