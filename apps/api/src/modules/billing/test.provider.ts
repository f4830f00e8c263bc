import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { PLAN_IDS, PLANS } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import { testProviderObjects } from "../../db/schema/billing.ts";
import { now } from "../../platform/clock.ts";
import type { Db } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { prorationCents } from "./proration.ts";
import {
  badSignature,
  type CreatedSubscription,
  type PaymentProvider,
  type ProviderCard,
  type ProviderInvoice,
  type ProviderSubscription,
  paymentFailed,
} from "./provider.ts";
import { AUTHENTICATION_FAILED, type CardInput, CHARGE_DECLINED, cardProblem, TEST_CARDS } from "./test-cards.ts";
import { createStore, type InvoiceLine, type PaymentMethod, type Subscription } from "./test-provider.store.ts";

/**
 * Cove's own payment provider for test mode (PAYMENT_PROVIDER=test, the default): it keeps customers, cards,
 * subscriptions, invoices and payment intents in its own table, charges test cards as card providers do in test mode,
 * renews subscriptions at the end of each period, and tells Cove about every change through Cove's webhook path,
 * signed, like a real provider. Nothing is ever charged. See docs/decisions/2026-11-25-billing-providers.md.
 */

const SIGNATURE_HEADER = "cove-test-signature";
const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A failed renewal is tried again this often, this many times; then the invoice waits for a new card. */
const RETRY_DAYS = 3;
const MAX_ATTEMPTS = 4;
const DAY = 86_400;
/** A first payment still waiting for its confirmation this long is given up, as card providers do (23 hours). */
const INCOMPLETE_EXPIRES = 23 * 3_600;

/** What the test provider sends to Cove's webhook path. */
export interface TestEvent {
  id: string;
  type: string;
  created: number;
  data: { object: { id: string; object: "subscription" | "invoice" } };
}

export interface CardForm extends CardInput {
  name?: string | null;
  address?: Record<string, string | null> | null;
}

export interface TestProvider extends PaymentProvider {
  /** The card form's call: checks the card as a provider's card element would and answers a payment method id. */
  createPaymentMethod(
    card: CardForm,
  ): Promise<{ id: string; card: Omit<ProviderCard, "billingName" | "billingAddress"> }>;
  /** The extra confirmation step (3-D Secure) of a payment that asked for one. */
  confirmPayment(clientSecret: string, outcome: "complete" | "fail"): Promise<void>;
  /** Renews (or ends) every subscription whose period is over, and retries failed payments that are due. */
  renewDue(): Promise<number>;
  /** Moves one customer's billing dates back by days, as if that much time had passed (a provider's test clock). */
  shiftCustomer(customerId: string, days: number): Promise<void>;
  signature(body: string, at: Date): Promise<string>;
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const fromUnix = (s: number | null) => (s === null ? null : new Date(s * 1000));
const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** The same day of the next month, or its last day when it has no such day (31 January -> 28/29 February). */
export function addMonth(seconds: number): number {
  const d = new Date(seconds * 1000);
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return unix(target);
}

/** The test provider: a small card provider of its own, kept in the test_provider_objects table. */
class TestPaymentProvider implements TestProvider {
  private readonly store: ReturnType<typeof createStore>;

  constructor(
    private readonly db: Db,
    private readonly emit: (event: TestEvent) => Promise<void>,
  ) {
    this.store = createStore(db);
  }

  private async send(type: string, object: { id: string; object: "subscription" | "invoice" }) {
    await this.emit({ id: newId("evt"), type, created: unix(now()), data: { object } });
  }

  private async webhookSecret(): Promise<string> {
    await this.db
      .insert(testProviderObjects)
      .values({ id: "webhook_secret", type: "webhook_secret", data: { secret: randomBytes(32).toString("hex") } })
      .onConflictDoNothing();
    return (await this.store.must("webhook_secret", "webhook_secret")).secret;
  }

  private sign(secret: string, t: number, body: string): string {
    return createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  }

  private toSubscription(id: string, s: Subscription): ProviderSubscription {
    return {
      id,
      customerId: s.customer,
      status: s.status,
      plan: s.plan,
      currentPeriodStart: fromUnix(s.current_period_start),
      currentPeriodEnd: fromUnix(s.current_period_end),
      cancelAtPeriodEnd: s.cancel_at_period_end,
      endedAt: fromUnix(s.ended_at),
      latestInvoiceId: s.latest_invoice,
    };
  }

  /**
   * A new open invoice for the period starting at start, with what a plan change carried to it. A credit larger than
   * the period's price is carried on to the next one: answers the invoice and the credit left (0 or negative).
   */
  private async openInvoice(subId: string, sub: Subscription, start: number): Promise<{ id: string; carried: number }> {
    const count = (await this.store.all("invoice", sql`data->>'customer' = ${sub.customer}`)).length;
    const id = newId("in");
    const price = PLANS[sub.plan].price * 100;
    const adjustment = sub.proration ?? 0;
    const total = price + adjustment;
    const lines: InvoiceLine[] = [{ description: `Cove ${PLANS[sub.plan].name} plan, monthly`, amount: price }];
    if (adjustment > 0)
      lines.push({ description: "Plan change: the new plan for the rest of the last period", amount: adjustment });
    if (adjustment < 0)
      lines.push({ description: "Plan change: unused time on the previous plan", amount: adjustment });
    if (total < 0) lines.push({ description: "Credit carried to the next invoice", amount: -total });
    await this.store.put("invoice", id, {
      customer: sub.customer,
      subscription: subId,
      number: `TEST-${sub.customer.slice(-6).toUpperCase()}-${String(count + 1).padStart(4, "0")}`,
      amount_due: Math.max(0, total),
      amount_paid: 0,
      currency: "usd",
      status: "open",
      created: unix(now()),
      period_start: start,
      period_end: addMonth(start),
      payment_intent: null,
      lines,
    });
    return { id, carried: Math.min(0, total) };
  }

  /** A first payment that was never confirmed: its invoice is voided and its confirmation step can no longer be done. */
  private async voidFirstInvoice(sub: Subscription): Promise<void> {
    const invoice = sub.latest_invoice ? await this.store.get("invoice", sub.latest_invoice) : null;
    if (!sub.latest_invoice || !invoice || invoice.status !== "open") return;
    await this.store.put("invoice", sub.latest_invoice, { ...invoice, status: "void" });
    const intent = invoice.payment_intent ? await this.store.get("payment_intent", invoice.payment_intent) : null;
    if (invoice.payment_intent && intent)
      await this.store.put("payment_intent", invoice.payment_intent, { ...intent, status: "canceled" });
    await this.send("invoice.voided", { id: sub.latest_invoice, object: "invoice" });
  }

  /** Charges an open invoice with the subscription's card, off-session (renewals, retries): true when paid. */
  private async charge(invoiceId: string, sub: Subscription): Promise<boolean> {
    const invoice = await this.store.must("invoice", invoiceId);
    const card = await this.store.get("payment_method", sub.default_payment_method);
    const ok = card !== null && card.behaviour.kind !== "decline_charges" && card.behaviour.kind !== "decline";
    if (ok) await this.store.put("invoice", invoiceId, { ...invoice, status: "paid", amount_paid: invoice.amount_due });
    await this.send(ok ? "invoice.paid" : "invoice.payment_failed", { id: invoiceId, object: "invoice" });
    return ok;
  }

  readonly kind = "test" as const;
  readonly publishableKey = null;

  async createPaymentMethod(card: CardForm) {
    const problem = cardProblem(card, now());
    if (problem) throw paymentFailed(problem);
    const digits = card.number.replace(/[\s-]/g, "");
    const known = TEST_CARDS[digits];
    if (!known) throw paymentFailed(CHARGE_DECLINED);
    const id = newId("pm");
    const method: PaymentMethod = {
      brand: known.brand,
      last4: digits.slice(-4),
      exp_month: card.exp_month,
      exp_year: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
      behaviour: known.behaviour,
      billing_name: card.name ?? null,
      billing_address: card.address ?? null,
      customer: null,
    };
    await this.store.put("payment_method", id, method);
    return {
      id,
      card: { brand: method.brand, last4: method.last4, expMonth: method.exp_month, expYear: method.exp_year },
    };
  }

  async createCustomer({ orgId, name, email }: Parameters<PaymentProvider["createCustomer"]>[0]) {
    const id = newId("cus");
    await this.store.put("customer", id, { org_id: orgId, name, email, default_payment_method: null });
    return id;
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string) {
    const customer = await this.store.must("customer", customerId);
    const method = await this.store.get("payment_method", paymentMethodId);
    if (!method) throw paymentFailed("That card could not be found: enter it again.");
    if (method.customer && method.customer !== customerId) {
      throw paymentFailed("That card belongs to another customer: enter it again.");
    }
    // As card providers do, a card that will be refused is refused when it is attached (a zero-amount check).
    if (method.behaviour.kind === "decline") throw paymentFailed(method.behaviour.message);
    await this.store.put("payment_method", paymentMethodId, { ...method, customer: customerId });
    await this.store.put("customer", customerId, { ...customer, default_payment_method: paymentMethodId });
    return {
      brand: method.brand,
      last4: method.last4,
      expMonth: method.exp_month,
      expYear: method.exp_year,
      billingName: method.billing_name,
      billingAddress: method.billing_address,
    };
  }

  async createSubscription({
    customerId,
    plan,
    paymentMethodId,
  }: Parameters<PaymentProvider["createSubscription"]>[0]): Promise<CreatedSubscription> {
    const method = await this.store.must("payment_method", paymentMethodId);
    const start = unix(now());
    const id = newId("sub");
    const sub: Subscription = {
      customer: customerId,
      plan,
      status: "incomplete",
      current_period_start: start,
      current_period_end: addMonth(start),
      cancel_at_period_end: false,
      ended_at: null,
      latest_invoice: null,
      default_payment_method: paymentMethodId,
      next_attempt_at: null,
      attempts: 0,
    };
    const invoiceId = (await this.openInvoice(id, sub, start)).id;
    sub.latest_invoice = invoiceId;
    await this.store.put("subscription", id, sub);
    await this.send("customer.subscription.created", { id, object: "subscription" });

    if (method.behaviour.kind === "authenticate") {
      const intentId = newId("pi");
      const clientSecret = `${intentId}_secret_${randomBytes(12).toString("hex")}`;
      await this.store.put("payment_intent", intentId, {
        invoice: invoiceId,
        client_secret: clientSecret,
        status: "requires_action",
      });
      const invoice = await this.store.must("invoice", invoiceId);
      await this.store.put("invoice", invoiceId, { ...invoice, payment_intent: intentId });
      return { subscription: this.toSubscription(id, sub), clientSecret };
    }
    if (!(await this.charge(invoiceId, sub))) {
      // The first payment failed: like an incomplete subscription that is never paid, it ends at once.
      const invoice = await this.store.must("invoice", invoiceId);
      await this.store.put("invoice", invoiceId, { ...invoice, status: "void" });
      await this.store.put("subscription", id, { ...sub, status: "incomplete_expired", ended_at: start });
      await this.send("customer.subscription.updated", { id, object: "subscription" });
      throw paymentFailed(CHARGE_DECLINED);
    }
    const active: Subscription = { ...sub, status: "active" };
    await this.store.put("subscription", id, active);
    await this.send("customer.subscription.updated", { id, object: "subscription" });
    return { subscription: this.toSubscription(id, active), clientSecret: null };
  }

  async confirmPayment(clientSecret: string, outcome: "complete" | "fail") {
    const [found] = await this.store.all("payment_intent", sql`data->>'client_secret' = ${clientSecret}`);
    if (!found) throw paymentFailed("This payment could not be found: start again.");
    if (found.data.status === "succeeded") return;
    if (found.data.status === "canceled") {
      throw paymentFailed("This payment was given up for a newer one, so it can no longer be confirmed.");
    }
    if (outcome === "fail") {
      await this.store.put("payment_intent", found.id, { ...found.data, status: "requires_payment_method" });
      throw paymentFailed(AUTHENTICATION_FAILED);
    }
    await this.store.put("payment_intent", found.id, { ...found.data, status: "succeeded" });
    const invoice = await this.store.must("invoice", found.data.invoice);
    await this.store.put("invoice", found.data.invoice, {
      ...invoice,
      status: "paid",
      amount_paid: invoice.amount_due,
    });
    const sub = await this.store.must("subscription", invoice.subscription);
    // The period starts when the payment is made.
    const start = unix(now());
    await this.store.put("subscription", invoice.subscription, {
      ...sub,
      status: "active",
      current_period_start: start,
      current_period_end: addMonth(start),
    });
    await this.send("invoice.paid", { id: found.data.invoice, object: "invoice" });
    await this.send("customer.subscription.updated", { id: invoice.subscription, object: "subscription" });
  }

  async retrieveSubscription(id: string) {
    return this.toSubscription(id, await this.store.must("subscription", id));
  }

  async updateSubscription(id: string, change: Parameters<PaymentProvider["updateSubscription"]>[1]) {
    const sub = await this.store.must("subscription", id);
    if (sub.status === "canceled" || sub.status === "incomplete_expired") {
      throw new AppError("CONFLICT", "This subscription has ended: subscribe again instead.");
    }
    const next: Subscription = { ...sub };
    if (change.cancelAtPeriodEnd !== undefined) next.cancel_at_period_end = change.cancelAtPeriodEnd;
    if (change.plan && PLAN_IDS.includes(change.plan) && change.plan !== sub.plan) {
      next.plan = change.plan;
      // As Stripe's create_prorations: the difference for the rest of the period goes on the next invoice.
      const prorated = prorationCents(
        sub.plan,
        change.plan,
        new Date(sub.current_period_start * 1000),
        new Date(sub.current_period_end * 1000),
        now(),
      );
      next.proration = (sub.proration ?? 0) + prorated;
    }
    if (change.paymentMethodId) next.default_payment_method = change.paymentMethodId;
    await this.store.put("subscription", id, next);
    await this.send("customer.subscription.updated", { id, object: "subscription" });
    return this.toSubscription(id, next);
  }

  async cancelNow(id: string) {
    const sub = await this.store.get("subscription", id);
    if (!sub || sub.status === "canceled" || sub.status === "incomplete_expired") return;
    await this.store.put("subscription", id, {
      ...sub,
      status: sub.status === "incomplete" ? "incomplete_expired" : "canceled",
      ended_at: unix(now()),
    });
    if (sub.status === "incomplete") await this.voidFirstInvoice(sub);
    await this.send("customer.subscription.deleted", { id, object: "subscription" });
  }

  async payOpenInvoices(subscriptionId: string) {
    const sub = await this.store.must("subscription", subscriptionId);
    const open = await this.store.all(
      "invoice",
      sql`data->>'subscription' = ${subscriptionId} and data->>'status' = 'open'`,
    );
    let allPaid = true;
    for (const invoice of open) allPaid = (await this.charge(invoice.id, sub)) && allPaid;
    if (sub.status === "past_due" && allPaid) {
      await this.store.put("subscription", subscriptionId, {
        ...sub,
        status: "active",
        next_attempt_at: null,
        attempts: 0,
      });
      await this.send("customer.subscription.updated", { id: subscriptionId, object: "subscription" });
    }
    if (!allPaid) throw paymentFailed(CHARGE_DECLINED);
  }

  async retrieveInvoice(id: string): Promise<ProviderInvoice> {
    const i = await this.store.must("invoice", id);
    return {
      id,
      customerId: i.customer,
      subscriptionId: i.subscription,
      number: i.number,
      amountDue: i.amount_due,
      amountPaid: i.amount_paid,
      currency: i.currency,
      status: i.status,
      created: new Date(i.created * 1000),
      periodStart: fromUnix(i.period_start),
      periodEnd: fromUnix(i.period_end),
      url: null,
      lines: i.lines ?? [{ description: "Cove subscription", amount: i.amount_due }],
    };
  }

  async renewDue() {
    let changed = 0;
    // A clock moved on by months renews once per period, in order.
    // A first payment never confirmed within 23 hours is given up: the subscription never started, nothing is owed.
    const stale = await this.store.all(
      "subscription",
      sql`data->>'status' = 'incomplete' and (data->>'current_period_start')::bigint <= ${unix(now()) - INCOMPLETE_EXPIRES}`,
    );
    for (const { id, data: sub } of stale) {
      changed++;
      await this.store.put("subscription", id, { ...sub, status: "incomplete_expired", ended_at: unix(now()) });
      await this.voidFirstInvoice(sub);
      await this.send("customer.subscription.updated", { id, object: "subscription" });
    }
    for (let round = 0; round < 36; round++) {
      const at = unix(now());
      const due = await this.store.all(
        "subscription",
        sql`(data->>'status' in ('active', 'past_due') and (data->>'current_period_end')::bigint <= ${at})
            or (data->>'status' = 'past_due' and (data->>'next_attempt_at')::bigint <= ${at})`,
      );
      if (due.length === 0) break;
      for (const { id, data: sub } of due) {
        changed++;
        if (sub.current_period_end <= at && sub.cancel_at_period_end) {
          await this.store.put("subscription", id, { ...sub, status: "canceled", ended_at: sub.current_period_end });
          await this.send("customer.subscription.deleted", { id, object: "subscription" });
          continue;
        }
        if (sub.current_period_end <= at) {
          const start = sub.current_period_end;
          const opened = await this.openInvoice(id, sub, start);
          const invoiceId = opened.id;
          const next = {
            ...sub,
            current_period_start: start,
            current_period_end: addMonth(start),
            latest_invoice: invoiceId,
            proration: opened.carried,
          };
          const paid = await this.charge(invoiceId, next);
          await this.store.put("subscription", id, {
            ...next,
            status: paid ? (next.status === "past_due" ? "past_due" : "active") : "past_due",
            next_attempt_at: paid ? next.next_attempt_at : start + RETRY_DAYS * DAY,
            attempts: paid ? next.attempts : 1,
          });
        } else {
          const open = await this.store.all("invoice", sql`data->>'subscription' = ${id} and data->>'status' = 'open'`);
          let allPaid = true;
          for (const invoice of open) allPaid = (await this.charge(invoice.id, sub)) && allPaid;
          const attempts = sub.attempts + 1;
          await this.store.put("subscription", id, {
            ...sub,
            status: allPaid ? "active" : "past_due",
            attempts: allPaid ? 0 : attempts,
            next_attempt_at:
              allPaid || attempts >= MAX_ATTEMPTS ? null : (sub.next_attempt_at ?? at) + RETRY_DAYS * DAY,
          });
        }
        await this.send("customer.subscription.updated", { id, object: "subscription" });
      }
    }
    return changed;
  }

  async shiftCustomer(customerId: string, days: number) {
    const by = days * DAY;
    const back = (s: number | null) => (s === null ? null : s - by);
    for (const { id, data } of await this.store.all("subscription", sql`data->>'customer' = ${customerId}`)) {
      await this.store.put("subscription", id, {
        ...data,
        current_period_start: data.current_period_start - by,
        current_period_end: data.current_period_end - by,
        ended_at: back(data.ended_at),
        next_attempt_at: back(data.next_attempt_at),
      });
    }
    for (const { id, data } of await this.store.all("invoice", sql`data->>'customer' = ${customerId}`)) {
      await this.store.put("invoice", id, {
        ...data,
        created: data.created - by,
        period_start: data.period_start - by,
        period_end: data.period_end - by,
      });
    }
  }

  async signature(body: string, at: Date) {
    const t = unix(at);
    return `t=${t},v1=${this.sign(await this.webhookSecret(), t, body)}`;
  }

  async verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
    const header = headers[SIGNATURE_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(value ?? "");
    if (!match) throw badSignature();
    const t = Number(match[1]);
    const expected = Buffer.from(this.sign(await this.webhookSecret(), t, rawBody.toString("utf8")), "hex");
    const given = Buffer.from(match[2] ?? "", "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badSignature();
    if (Math.abs(unix(now()) - t) > SIGNATURE_TOLERANCE_SECONDS) throw badSignature();
    let event: TestEvent;
    try {
      event = JSON.parse(rawBody.toString("utf8")) as TestEvent;
    } catch {
      throw new AppError("BAD_REQUEST", "The webhook's body is not valid JSON.");
    }
    const object = event.data?.object;
    if (typeof event.id !== "string" || typeof event.type !== "string") {
      throw new AppError("BAD_REQUEST", "The webhook's body is not an event.");
    }
    return {
      id: event.id,
      type: event.type,
      object:
        object && (object.object === "subscription" || object.object === "invoice") && typeof object.id === "string"
          ? { kind: object.object, id: object.id }
          : null,
    };
  }
}

export function createTestProvider(db: Db, emit: (event: TestEvent) => Promise<void>): TestProvider {
  return new TestPaymentProvider(db, emit);
}

export { SIGNATURE_HEADER as TEST_SIGNATURE_HEADER };
