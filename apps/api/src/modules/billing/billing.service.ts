import type { BillingConfigAnswer, Invoice, SubscribeAnswer, SubscriptionAnswer } from "@cove/contract/billing.ts";
import type {
  BillingDetails,
  BillingDetailsAnswer,
  billingDetailsBody,
  PlanChangePreview,
} from "@cove/contract/billing-account.ts";
import { PLANS, type PlanId } from "@cove/contract/constants.ts";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { billingDetails, invoices, subscriptions } from "../../db/schema/billing.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { users } from "../../db/schema/users.ts";
import { audit } from "../../platform/audit.ts";
import type { RequestTx } from "../../platform/auth.ts";
import { now } from "../../platform/clock.ts";
import { queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";
import { accessAt, readBillingState } from "./access.ts";
import { applyInvoice, applySubscription, fetchState, syncFromProvider } from "./billing.sync.ts";
import { prorationCents } from "./proration.ts";
import type { PaymentProvider, ProviderCard } from "./provider.ts";

/**
 * Subscribing, converting a trial, cancelling, changing plan and card. Each talks to the provider between two short
 * tenant transactions, never inside one (a network round trip must not hold a transaction, and the embedded database
 * has a single connection).
 */
export interface BillingDeps {
  provider: PaymentProvider;
  /** Runs fn in the request's tenant transaction (inRequest). */
  tenant: RequestTx<Ctx>;
}

/** A subscription that still runs: it can be cancelled, changed or paid. */
const LIVE = new Set(["active", "trialing", "past_due", "unpaid"]);
/** A subscribe call that has been talking to the provider this long has died; another may start. */
const PENDING_MS = 2 * 60_000;

type Row = typeof subscriptions.$inferSelect;

/** The billing change an audit entry records (written with the provider's answer, in the transaction that applies it). */
type BillingAction = "billing.canceled" | "billing.resumed" | "billing.plan_changed" | "billing.payment_method_changed";

const subscriptionObject = (ctx: TenantCtx, plan: string | null) => ({
  type: "subscription",
  id: ctx.orgId,
  label: plan && plan in PLANS ? PLANS[plan as PlanId].name : null,
});
const cardDetails = (card: ProviderCard) => ({ card: `${card.brand} ending ${card.last4}` });

async function subscriptionRow(ctx: Ctx): Promise<Row | null> {
  const [row] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.organizationId, ctx.orgId));
  return row ?? null;
}

/** The organization's subscription at the payment provider, if it ever had one (for ending it when it is deleted). */
export async function subscriptionIdOf(ctx: TenantCtx): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: subscriptions.subscriptionId })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, ctx.orgId));
  return row?.id ?? null;
}

function assertLive(row: Row | null): asserts row is Row & { subscriptionId: string; customerId: string } {
  if (!row?.subscriptionId || !row.customerId || !LIVE.has(row.providerStatus ?? "")) {
    throw new AppError(
      "CONFLICT",
      "Your organization has no subscription yet: choose a plan on the Billing page first.",
    );
  }
}

/** A plan with fewer seats than the team already holds is refused, naming both numbers. */
async function assertSeatsFit(ctx: Ctx, plan: PlanId): Promise<void> {
  const limit = PLANS[plan].maxAgents;
  if (limit === null) return;
  const [row] = await queryRows<{ used: number }>(
    ctx.db,
    sql`select count(*)::int as used from users where organization_id = ${ctx.orgId} and status in ('active', 'invited')`,
  );
  const used = row?.used ?? 0;
  if (used <= limit) return;
  throw new AppError(
    "SEAT_LIMIT",
    `Your team has ${used} members (active and invited), and the ${PLANS[plan].name} plan allows ${limit}. Choose a larger plan, or deactivate members or revoke invitations first.`,
  );
}

const cardColumns = (card: ProviderCard) => ({
  cardBrand: card.brand,
  cardLast4: card.last4,
  cardExpMonth: card.expMonth,
  cardExpYear: card.expYear,
  billingName: card.billingName,
  billingAddress: card.billingAddress,
});

export function billingConfig(provider: PaymentProvider): BillingConfigAnswer {
  return { provider: provider.kind, publishableKey: provider.publishableKey };
}

async function view(ctx: Ctx, provider: PaymentProvider): Promise<SubscriptionAnswer> {
  const state = await readBillingState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  const row = await subscriptionRow(ctx);
  const shown = (state.status === "active" || state.status === "past_due") && row?.subscriptionId;
  return {
    plan: state.plan,
    plan_name: PLANS[state.plan].name,
    status: state.status,
    subscription: shown
      ? {
          status: state.status,
          currentPeriodEnd: row.currentPeriodEnd ? Math.floor(row.currentPeriodEnd.getTime() / 1000) : null,
          cancel_at_period_end: row.cancelAtPeriodEnd,
          canceled_at: row.endedAt ? row.endedAt.toISOString() : null,
        }
      : null,
    trial_ends_at: state.trialEndsAt ? state.trialEndsAt.toISOString() : null,
    card:
      row?.cardLast4 && row.cardBrand && row.cardExpMonth && row.cardExpYear
        ? { brand: row.cardBrand, last4: row.cardLast4, exp_month: row.cardExpMonth, exp_year: row.cardExpYear }
        : null,
    access: accessAt(state, now()),
    provider: provider.kind,
    timezone: state.timezone,
  };
}

/** GET /billing/subscription. A payment still waiting for its confirmation is looked up again. */
export async function getSubscription(deps: BillingDeps): Promise<SubscriptionAnswer> {
  const pending = await deps.tenant(async (ctx) => {
    const row = await subscriptionRow(ctx);
    return row?.providerStatus === "incomplete" && row.subscriptionId
      ? { id: row.subscriptionId, mark: row.syncGeneration }
      : null;
  });
  if (pending) {
    return syncFromProvider(
      deps.tenant,
      () => fetchState(deps.provider, pending.id),
      async (ctx, fresh) => {
        if (fresh.invoice) await applyInvoice(ctx, deps.provider.kind, fresh.invoice, fresh.subscription.status);
        await applySubscription(ctx, deps.provider.kind, fresh.subscription);
        return view(ctx, deps.provider);
      },
      pending.mark,
    );
  }
  return deps.tenant((ctx) => view(ctx, deps.provider));
}

/** POST /billing/subscribe and POST /trial/convert. */
export async function subscribe(
  deps: BillingDeps,
  input: { plan: PlanId; paymentMethodId: string },
  mode: "subscribe" | "convert",
): Promise<SubscribeAnswer> {
  const { provider } = deps;
  const at = now();
  const prep = await deps.tenant(async (ctx) => {
    // The organization's row lock: one subscribe at a time per organization.
    const [org] = await ctx.db
      .select({ name: organizations.name, status: organizations.subscriptionStatus })
      .from(organizations)
      .where(eq(organizations.id, ctx.orgId))
      .for("no key update");
    if (!org) throw notFound("Organization");
    const [me] = await ctx.db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.orgId)));
    const row = await subscriptionRow(ctx);
    if (mode === "convert" && org.status !== "trialing") {
      throw new AppError("CONFLICT", "Your organization is not on a trial: manage its plan on the Billing page.");
    }
    if (row?.subscriptionId && LIVE.has(row.providerStatus ?? "")) {
      throw new AppError("CONFLICT", "Your organization already has a subscription: change its plan instead.");
    }
    if (row?.pendingSince && at.getTime() - row.pendingSince.getTime() < PENDING_MS) {
      throw new AppError(
        "CONFLICT",
        "A payment for your organization is already being processed. Wait a moment, then reload the page.",
      );
    }
    await assertSeatsFit(ctx, input.plan);
    // A record made with another provider (PAYMENT_PROVIDER changed) starts over with this one.
    const sameProvider = sql`${subscriptions.provider} = ${provider.kind}`;
    await ctx.db
      .insert(subscriptions)
      .values({ organizationId: ctx.orgId, provider: provider.kind, pendingSince: at })
      .onConflictDoUpdate({
        target: subscriptions.organizationId,
        set: {
          pendingSince: at,
          provider: provider.kind,
          customerId: sql`case when ${sameProvider} then ${subscriptions.customerId} end`,
          subscriptionId: sql`case when ${sameProvider} then ${subscriptions.subscriptionId} end`,
          providerStatus: sql`case when ${sameProvider} then ${subscriptions.providerStatus} end`,
        },
      });
    return {
      orgId: ctx.orgId,
      name: org.name,
      email: me?.email ?? "",
      customerId: row?.provider === provider.kind ? row.customerId : null,
      incomplete: row?.providerStatus === "incomplete" ? row.subscriptionId : null,
      // Read before the provider creates anything: the new subscription's answer is applied in order (syncFromProvider).
      mark: row?.syncGeneration ?? 0,
    };
  });

  let customerId = prep.customerId;
  try {
    if (!customerId) {
      const created = await provider.createCustomer({ orgId: prep.orgId, name: prep.name, email: prep.email });
      customerId = created;
      // Kept at once, so the provider's events about this customer find the organization from now on.
      await deps.tenant((ctx) =>
        ctx.db.update(subscriptions).set({ customerId: created }).where(eq(subscriptions.organizationId, ctx.orgId)),
      );
    }
    const card = await provider.attachPaymentMethod(customerId, input.paymentMethodId);
    // A payment that was never confirmed (its 3-D Secure step failed or was left) is given up for the new one: the
    // provider ends it and voids its invoice, so nothing of it stays owed.
    const abandoned = prep.incomplete ? await giveUp(provider, prep.incomplete) : null;
    const created = await provider.createSubscription({
      orgId: prep.orgId,
      customerId,
      plan: input.plan,
      paymentMethodId: input.paymentMethodId,
    });
    const invoice = created.subscription.latestInvoiceId
      ? await provider.retrieveInvoice(created.subscription.latestInvoiceId)
      : null;
    const savedCustomer = customerId;
    // The creation's answer, unless a webhook applied a state of the new subscription first: then it is read again.
    const createdState = { subscription: created.subscription, invoice };
    await syncFromProvider(
      deps.tenant,
      async (attempt) => (attempt === 0 ? createdState : fetchState(provider, created.subscription.id)),
      async (ctx, state) => {
        await ctx.db
          .update(subscriptions)
          .set({
            customerId: savedCustomer,
            subscriptionId: created.subscription.id,
            pendingSince: null,
            ...cardColumns(card),
          })
          .where(eq(subscriptions.organizationId, ctx.orgId));
        if (abandoned?.invoice) {
          await applyInvoice(ctx, provider.kind, abandoned.invoice, abandoned.subscription.status);
        }
        if (state.invoice) await applyInvoice(ctx, provider.kind, state.invoice, state.subscription.status);
        await applySubscription(ctx, provider.kind, state.subscription, at);
        await audit(ctx, "billing.subscribed", subscriptionObject(ctx, input.plan), {
          plan: input.plan,
          mode,
          ...cardDetails(card),
        });
      },
      prep.mark,
    );
    if (created.clientSecret) {
      return {
        status: "requires_confirmation",
        clientSecret: created.clientSecret,
        message: "Your bank asks you to confirm this payment.",
      };
    }
    return {
      status: "active",
      message: mode === "convert" ? "Successfully upgraded to paid plan!" : "Subscription created successfully!",
    };
  } catch (err) {
    const savedCustomer = customerId;
    await deps.tenant((ctx) =>
      ctx.db
        .update(subscriptions)
        .set({ pendingSince: null, customerId: sql`coalesce(${subscriptions.customerId}, ${savedCustomer})` })
        .where(eq(subscriptions.organizationId, ctx.orgId)),
    );
    throw err;
  }
}

/** Ends a subscription whose first payment was never confirmed and reads it back (null if the provider failed). */
async function giveUp(provider: PaymentProvider, subscriptionId: string) {
  try {
    await provider.cancelNow(subscriptionId);
    return await fetchState(provider, subscriptionId);
  } catch {
    // The new payment goes ahead; the provider ends the old attempt on its own (Stripe after 23 hours).
    return null;
  }
}

/** Reads the subscription again after a change made at the provider, and applies it. */
async function changeAndApply(
  deps: BillingDeps,
  change: (row: Row & { subscriptionId: string; customerId: string }) => Promise<ProviderCard | null>,
  check: ((ctx: Ctx, row: Row & { subscriptionId: string; customerId: string }) => Promise<void>) | undefined,
  record: { action: BillingAction; details?: Record<string, unknown> },
) {
  const row = await deps.tenant(async (ctx) => {
    const found = await subscriptionRow(ctx);
    assertLive(found);
    await check?.(ctx, found);
    return found;
  });
  const card = await change(row);
  return syncFromProvider(
    deps.tenant,
    () => fetchState(deps.provider, row.subscriptionId),
    async (ctx, fresh) => {
      if (card) {
        await ctx.db.update(subscriptions).set(cardColumns(card)).where(eq(subscriptions.organizationId, ctx.orgId));
      }
      if (fresh.invoice) await applyInvoice(ctx, deps.provider.kind, fresh.invoice, fresh.subscription.status);
      await applySubscription(ctx, deps.provider.kind, fresh.subscription);
      const details = { ...record.details, ...(card ? cardDetails(card) : {}) };
      await audit(ctx, record.action, subscriptionObject(ctx, fresh.subscription.plan ?? row.plan), details);
      return fresh.subscription;
    },
    row.syncGeneration,
  );
}

/** Sets or clears the subscription's cancellation at the end of its period, at the provider, then here. */
async function setCancelAtPeriodEnd(
  deps: BillingDeps,
  cancelAtPeriodEnd: boolean,
  action: BillingAction,
): Promise<void> {
  await changeAndApply(
    deps,
    async (row) => {
      await deps.provider.updateSubscription(row.subscriptionId, { cancelAtPeriodEnd });
      return null;
    },
    undefined,
    { action },
  );
}

/** POST /billing/cancel, effective at the end of the current period. */
export async function cancel(deps: BillingDeps): Promise<{ message: string }> {
  await setCancelAtPeriodEnd(deps, true, "billing.canceled");
  return { message: "Subscription will be cancelled at the end of the current period" };
}

/** Takes back a cancellation that has not taken effect yet. */
export async function resume(deps: BillingDeps): Promise<{ message: string }> {
  await setCancelAtPeriodEnd(deps, false, "billing.resumed");
  return { message: "Your subscription will renew as usual." };
}

/**
 * What a change to plan would do to the money, for the confirmation the Billing page asks before it: the same
 * checks as the change, and the proration of the rest of the current period, which goes on the next invoice.
 */
export async function previewPlanChange(ctx: Ctx, plan: PlanId): Promise<PlanChangePreview> {
  const row = await subscriptionRow(ctx);
  assertLive(row);
  const state = await readBillingState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  const current = row.plan ?? state.plan;
  if (current === plan) throw new AppError("CONFLICT", `Your organization is already on the ${PLANS[plan].name} plan.`);
  await assertSeatsFit(ctx, plan);
  const { currentPeriodStart: start, currentPeriodEnd: end } = row;
  return {
    plan,
    plan_name: PLANS[plan].name,
    price: PLANS[plan].price * 100,
    current_plan: current,
    current_plan_name: PLANS[current].name,
    proration: start && end ? prorationCents(current, plan, start, end, now()) : 0,
    currency: "usd",
    next_invoice_at: end ? end.toISOString() : null,
  };
}

export async function changePlan(deps: BillingDeps, plan: PlanId): Promise<{ message: string }> {
  await changeAndApply(
    deps,
    async (row) => {
      await deps.provider.updateSubscription(row.subscriptionId, { plan });
      return null;
    },
    async (ctx, row) => {
      if (row.plan === plan)
        throw new AppError("CONFLICT", `Your organization is already on the ${PLANS[plan].name} plan.`);
      await assertSeatsFit(ctx, plan);
    },
    { action: "billing.plan_changed", details: { plan } },
  );
  return { message: `Your organization is now on the ${PLANS[plan].name} plan.` };
}

/** A new card for the subscription; an overdue invoice is tried again with it at once. */
export async function updatePaymentMethod(deps: BillingDeps, paymentMethodId: string): Promise<{ message: string }> {
  let overdue = false;
  await changeAndApply(
    deps,
    async (row) => {
      const card = await deps.provider.attachPaymentMethod(row.customerId, paymentMethodId);
      await deps.provider.updateSubscription(row.subscriptionId, { paymentMethodId });
      overdue = row.providerStatus === "past_due" || row.providerStatus === "unpaid";
      if (overdue) {
        try {
          await deps.provider.payOpenInvoices(row.subscriptionId);
        } catch (err) {
          // The card is kept (it is the default now); the person learns the payment still failed.
          await deps.tenant(async (ctx) => {
            await ctx.db
              .update(subscriptions)
              .set(cardColumns(card))
              .where(eq(subscriptions.organizationId, ctx.orgId));
            await audit(ctx, "billing.payment_method_changed", subscriptionObject(ctx, row.plan), {
              ...cardDetails(card),
              overdue_payment: "failed",
            });
          });
          throw err;
        }
      }
      return card;
    },
    undefined,
    { action: "billing.payment_method_changed" },
  );
  return {
    message: overdue ? "Your card was updated and the overdue payment went through." : "Your card was updated.",
  };
}

/**
 * The organization's invoices, newest first; a voided one (an attempt that never completed) was never owed. Providers
 * stamp invoices to the second, so two from the same second go by their number, which a provider counts up per customer.
 */
export async function listInvoices(ctx: Ctx): Promise<{ invoices: Invoice[]; timezone: string }> {
  const [org] = await ctx.db
    .select({ timezone: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (!org) throw notFound("Organization");
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.organizationId, ctx.orgId), ne(invoices.status, "void")))
    .orderBy(desc(invoices.createdAt), desc(invoices.number))
    .limit(100);
  return { invoices: rows.map(invoiceAnswer), timezone: org.timezone };
}

function invoiceAnswer(r: typeof invoices.$inferSelect): Invoice {
  return {
    id: r.id,
    number: r.number,
    amount_due: r.amountDue,
    amount_paid: r.amountPaid,
    currency: r.currency,
    status: r.status,
    created_at: r.createdAt.toISOString(),
    period_start: r.periodStart ? r.periodStart.toISOString() : null,
    period_end: r.periodEnd ? r.periodEnd.toISOString() : null,
    url: r.url,
  };
}

/** The customer at the provider, for the test clock. */
export async function customerOf(ctx: Ctx): Promise<{ customerId: string | null; subscriptionId: string | null }> {
  const row = await subscriptionRow(ctx);
  return { customerId: row?.customerId ?? null, subscriptionId: row?.subscriptionId ?? null };
}

/** Moves the organization's own billing dates back by days: as if that much time had passed (test provider only). */
export async function shiftOrganization(ctx: Ctx, days: number): Promise<void> {
  const by = sql`make_interval(days => ${days}::int)`;
  await ctx.db
    .update(organizations)
    .set({ trialEndsAt: sql`${organizations.trialEndsAt} - ${by}` })
    .where(eq(organizations.id, ctx.orgId));
  await ctx.db
    .update(subscriptions)
    .set({
      currentPeriodStart: sql`${subscriptions.currentPeriodStart} - ${by}`,
      currentPeriodEnd: sql`${subscriptions.currentPeriodEnd} - ${by}`,
      endedAt: sql`${subscriptions.endedAt} - ${by}`,
      pastDueSince: sql`${subscriptions.pastDueSince} - ${by}`,
    })
    .where(and(eq(subscriptions.organizationId, ctx.orgId)));
}

const ADDRESS_KEYS = ["line1", "line2", "city", "state", "postal_code", "country"] as const;

/**
 * Who the invoices are addressed to: what an admin saved on the Billing page, else the organization's name and the
 * card's billing address (the card form asks for it).
 */
export async function getBillingDetails(ctx: Ctx): Promise<BillingDetailsAnswer> {
  const [saved] = await ctx.db.select().from(billingDetails).where(eq(billingDetails.organizationId, ctx.orgId));
  if (saved) {
    return {
      saved: true,
      details: {
        name: saved.name,
        address_line1: saved.addressLine1,
        address_line2: saved.addressLine2,
        city: saved.city,
        region: saved.region,
        postal_code: saved.postalCode,
        country: saved.country,
        tax_id: saved.taxId,
      },
    };
  }
  const [org] = await ctx.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (!org) throw notFound("Organization");
  const row = await subscriptionRow(ctx);
  const card = Object.fromEntries(ADDRESS_KEYS.map((k) => [k, row?.billingAddress?.[k]?.trim() || null]));
  return {
    saved: false,
    details: {
      name: org.name,
      address_line1: card.line1 ?? null,
      address_line2: card.line2 ?? null,
      city: card.city ?? null,
      region: card.state ?? null,
      postal_code: card.postal_code ?? null,
      country: card.country?.toUpperCase() ?? null,
      tax_id: null,
    },
  };
}

export async function saveBillingDetails(
  ctx: Ctx,
  input: z.output<typeof billingDetailsBody>,
): Promise<BillingDetailsAnswer> {
  const values = {
    name: input.name,
    addressLine1: input.address_line1,
    addressLine2: input.address_line2,
    city: input.city,
    region: input.region,
    postalCode: input.postal_code,
    country: input.country,
    taxId: input.tax_id,
    updatedAt: now(),
  };
  await ctx.db
    .insert(billingDetails)
    .values({ organizationId: ctx.orgId, ...values })
    .onConflictDoUpdate({ target: billingDetails.organizationId, set: values });
  await audit(ctx, "billing.details_changed", { type: "billing_details", id: ctx.orgId, label: input.name || null });
  return getBillingDetails(ctx);
}

/** Everything one invoice's PDF prints; another organization's invoice, or no such invoice, is not found. */
export interface InvoiceDocument {
  organizationName: string;
  /** The organization's time zone: the invoice's dates are its days, whoever downloads it and wherever. */
  timeZone: string;
  billTo: BillingDetails;
  invoice: Invoice & { lines: { description: string; amount: number }[] };
}

export async function invoiceDocument(ctx: Ctx, id: string): Promise<InvoiceDocument> {
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.organizationId, ctx.orgId), eq(invoices.id, recordId("Invoice", id))));
  if (!row) throw notFound("Invoice");
  const [org] = await ctx.db
    .select({ name: organizations.name, timeZone: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, ctx.orgId));
  if (!org) throw notFound("Organization");
  const { details } = await getBillingDetails(ctx);
  return {
    organizationName: org.name,
    timeZone: org.timeZone,
    billTo: details,
    invoice: {
      ...invoiceAnswer(row),
      lines:
        row.lines && row.lines.length > 0 ? row.lines : [{ description: "Cove subscription", amount: row.amountDue }],
    },
  };
}
