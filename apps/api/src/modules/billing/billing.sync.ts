import type { PaymentProviderKind } from "@cove/contract/billing.ts";
import { PLANS } from "@cove/contract/constants.ts";
import { and, eq, sql } from "drizzle-orm";
import { billingEvents, invoices, subscriptions } from "../../db/schema/billing.ts";
import { organizations } from "../../db/schema/organizations.ts";
import { recordAudit } from "../../platform/audit.ts";
import { now } from "../../platform/clock.ts";
import type { Db, Queryable, Tx } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { withVisitor } from "../../platform/tenancy.ts";
import type { PaymentProvider, ProviderInvoice, ProviderSubscription } from "./provider.ts";

/**
 * Applying what the provider says to Cove's records. Every change is a copy of the provider's current state (read
 * again after each webhook), so applying the same state twice, or an older event after a newer one, ends the same.
 */

type Scope = { orgId: string; db: Queryable };

/**
 * The first lock of every transaction that writes an organization's billing records: its organization row, FOR NO KEY
 * UPDATE (docs/decisions/2026-11-25-lock-order-and-sharded-versions.md). The subscription row, the invoices and the
 * organization's plan are written after it, so a webhook and a subscribe of the same organization queue here instead
 * of each holding a row the other waits for (a deadlock, a 500).
 */
export async function lockForBilling(v: Scope): Promise<void> {
  await v.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, v.orgId))
    .for("no key update");
}

/** Runs fn in one of the organization's transactions (a request's, or a webhook's as the visitor). */
export type InBillingTx<C extends Scope = Scope> = <T>(fn: (v: C) => Promise<T>) => Promise<T>;

/** The organization's count of applied syncs (0 without a subscription row), read before asking the provider. */
export async function syncMark(v: Scope): Promise<number> {
  const [row] = await v.db
    .select({ generation: subscriptions.syncGeneration })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, v.orgId));
  return row?.generation ?? 0;
}

/** Attempts of one sync before it gives up (each lost only to another sync applied in between). */
const SYNC_ATTEMPTS = 5;

/**
 * Reads the provider's state and applies it, in the order the reads were made. The read is a network round trip, so
 * it runs outside any transaction (no row lock is held while the provider answers; the embedded database has a single
 * connection). Two syncs of one organization (two webhooks, a webhook and a user's change) may then read in one order
 * and apply in the other, and the older answer would be written over the newer one. So each sync reads the
 * organization's sync generation before asking the provider, and applies its answer, under lockForBilling, only if
 * the generation has not moved since: then no other answer was applied after this read was asked for, and every
 * answer applied before was read before it. If it moved, the answer may be older than the one applied: it is dropped
 * and the provider read again (the generation read under the lock is the new mark). `mark`: a generation read
 * earlier, before the provider was asked anything this sync applies (subscribe reads it with its first checks).
 * read(attempt): the state to apply; attempt 0 may return an answer already at hand, got after the mark was read.
 */
export async function syncFromProvider<C extends Scope, S, R>(
  inTx: InBillingTx<C>,
  read: (attempt: number) => Promise<S>,
  apply: (v: C, state: S) => Promise<R>,
  mark?: number,
): Promise<R> {
  let seen = mark ?? (await inTx(syncMark));
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const state = await read(attempt);
    const done = await inTx(async (v) => {
      await lockForBilling(v);
      const [row] = await v.db
        .select({ generation: subscriptions.syncGeneration })
        .from(subscriptions)
        .where(eq(subscriptions.organizationId, v.orgId));
      // No subscription row: nothing a sync writes is ordered (and none was applied).
      if (row && row.generation !== seen) return { applied: false as const, generation: row.generation };
      if (row) {
        await v.db
          .update(subscriptions)
          .set({ syncGeneration: seen + 1 })
          .where(eq(subscriptions.organizationId, v.orgId));
      }
      return { applied: true as const, result: await apply(v, state) };
    });
    if (done.applied) return done.result;
    seen = done.generation;
  }
  throw new AppError("CONFLICT", "Your subscription changed several times at once. Reload the page to see it.");
}

/** The subscription's state on the organization: its plan and status, the grace and cancellation dates. */
export async function applySubscription(
  v: Scope,
  provider: PaymentProviderKind,
  sub: ProviderSubscription,
  at = now(),
): Promise<void> {
  const [row] = await v.db
    .select({ subscriptionId: subscriptions.subscriptionId, pastDueSince: subscriptions.pastDueSince })
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, v.orgId), eq(subscriptions.provider, provider)))
    .for("update");
  // An older subscription (replaced by a newer one) no longer decides anything.
  if (!row || (row.subscriptionId !== null && row.subscriptionId !== sub.id)) return;

  const base = {
    subscriptionId: sub.id,
    providerStatus: sub.status,
    plan: sub.plan,
    currentPeriodStart: sub.currentPeriodStart,
    currentPeriodEnd: sub.currentPeriodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    updatedAt: at,
  };
  let org: Partial<typeof organizations.$inferInsert> | null = null;
  let extra: Partial<typeof subscriptions.$inferInsert> = {};
  switch (sub.status) {
    case "active":
    case "trialing":
      org = { subscriptionStatus: "active" };
      extra = { pastDueSince: null, endedAt: null };
      break;
    case "past_due":
    case "unpaid":
      org = { subscriptionStatus: "past_due" };
      extra = { pastDueSince: row.pastDueSince ?? at, endedAt: null };
      break;
    case "canceled":
      org = { subscriptionStatus: "canceled" };
      extra = { pastDueSince: null, endedAt: sub.endedAt ?? at, cancelAtPeriodEnd: false };
      break;
    case "incomplete_expired":
      // The first payment never went through: there was no subscription. The organization stays as it was.
      extra = { subscriptionId: null };
      break;
    default:
      // incomplete: waiting for the cardholder's confirmation; nothing changes until it is paid.
      break;
  }
  await v.db
    .update(subscriptions)
    .set({ ...base, ...extra })
    .where(eq(subscriptions.organizationId, v.orgId));
  if (org) {
    await v.db
      .update(organizations)
      .set({ ...org, ...(sub.plan ? { plan: sub.plan } : {}), updatedAt: at })
      .where(eq(organizations.id, v.orgId));
  }
}

/** A subscription whose first payment never went through: waiting for the cardholder's confirmation, or given up. */
const NEVER_STARTED = new Set(["incomplete", "incomplete_expired"]);

/**
 * An invoice as the provider reports it, given the status of the subscription it belongs to (null: none). The first
 * invoice of a subscription that never started is no bill of the organization's: it is not recorded unless paid, so a
 * 3-D Secure attempt that failed or was left is never listed as owed (the provider voids it when it is given up). A
 * row recorded before this rule is still brought up to date, so it turns void.
 */
export async function applyInvoice(
  v: Scope,
  provider: PaymentProviderKind,
  i: ProviderInvoice,
  subscriptionStatus: string | null,
): Promise<void> {
  const values = {
    number: i.number,
    amountDue: i.amountDue,
    amountPaid: i.amountPaid,
    currency: i.currency,
    status: i.status,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    url: i.url,
    lines: i.lines,
    createdAt: i.created,
  };
  if (subscriptionStatus !== null && NEVER_STARTED.has(subscriptionStatus) && i.status !== "paid") {
    await v.db
      .update(invoices)
      .set(values)
      .where(
        and(
          eq(invoices.organizationId, v.orgId),
          eq(invoices.provider, provider),
          eq(invoices.providerInvoiceId, i.id),
        ),
      );
    return;
  }
  await v.db
    .insert(invoices)
    .values({ organizationId: v.orgId, provider, providerInvoiceId: i.id, ...values })
    .onConflictDoUpdate({
      target: [invoices.organizationId, invoices.provider, invoices.providerInvoiceId],
      set: values,
    });
}

/** Reads a subscription and its latest invoice again from the provider (outside any transaction). */
export async function fetchState(provider: PaymentProvider, subscriptionId: string) {
  const subscription = await provider.retrieveSubscription(subscriptionId);
  const invoice = subscription.latestInvoiceId ? await provider.retrieveInvoice(subscription.latestInvoiceId) : null;
  return { subscription, invoice };
}

/** The organization Cove recorded a subscription or invoice of the provider for (as the owner role), if any. */
async function organizationOf(
  db: Db,
  provider: PaymentProviderKind,
  object: { kind: "subscription" | "invoice"; id: string },
): Promise<string | null> {
  const [row] =
    object.kind === "subscription"
      ? await db
          .select({ orgId: subscriptions.organizationId })
          .from(subscriptions)
          .where(and(eq(subscriptions.provider, provider), eq(subscriptions.subscriptionId, object.id)))
      : await db
          .select({ orgId: invoices.organizationId })
          .from(invoices)
          .where(and(eq(invoices.provider, provider), eq(invoices.providerInvoiceId, object.id)));
  return row?.orgId ?? null;
}

/**
 * A webhook delivery: verified, then applied once. The event only says which object changed; its current state is
 * read from the provider, so a duplicate or late delivery cannot move the organization back to an older state.
 */
async function statusOf(v: Scope) {
  const [row] = await v.db
    .select({ status: organizations.subscriptionStatus, plan: organizations.plan })
    .from(organizations)
    .where(eq(organizations.id, v.orgId));
  return row ?? null;
}

export async function handleWebhook(
  db: Db,
  provider: PaymentProvider,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ received: true; duplicate: boolean }> {
  const event = await provider.verifyWebhook(rawBody, headers);
  const key = `${provider.kind}:${event.id}`;
  const [seen] = await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, key));
  if (seen) return { received: true, duplicate: true };

  let orgId: string | null = null;
  if (event.object) {
    const object = event.object;
    // The object the event names, and with it the subscription and its latest invoice.
    const read = async () => {
      const invoice = object.kind === "invoice" ? await provider.retrieveInvoice(object.id) : null;
      const subscriptionId = object.kind === "subscription" ? object.id : (invoice?.subscriptionId ?? null);
      const fresh = subscriptionId ? await fetchState(provider, subscriptionId) : null;
      return { invoice, subscription: fresh?.subscription ?? null, latest: fresh?.invoice ?? null };
    };
    // Which organization: the one Cove recorded the object for, read before the provider is asked, so the sync's
    // generation is read before too (syncFromProvider). An object not recorded yet (a subscription's first events,
    // before the subscribe that created it has written it down): by the provider's customer, read once more then.
    orgId = await organizationOf(db, provider.kind, object);
    if (!orgId) {
      const first = await read();
      const customerId = first.subscription?.customerId ?? first.invoice?.customerId;
      // Found as the owner role (no organization is known yet).
      const [owner] = customerId
        ? await db
            .select({ orgId: subscriptions.organizationId })
            .from(subscriptions)
            .where(and(eq(subscriptions.provider, provider.kind), eq(subscriptions.customerId, customerId)))
        : [];
      orgId = owner?.orgId ?? null;
    }
    const org = orgId;
    if (org) {
      const inTx: InBillingTx<{ orgId: string; db: Tx }> = (fn) => withVisitor(db, org, fn);
      const mark = await inTx(syncMark);
      await syncFromProvider(
        inTx,
        read,
        async (v, { invoice, subscription, latest }) => {
          // Both belong to the subscription read here (an invoice of no subscription has no such status).
          const status = subscription?.status ?? null;
          if (invoice) await applyInvoice(v, provider.kind, invoice, invoice.subscriptionId ? status : null);
          if (latest && latest.id !== invoice?.id) await applyInvoice(v, provider.kind, latest, status);
          const before = await statusOf(v);
          if (subscription) await applySubscription(v, provider.kind, subscription);
          const after = await statusOf(v);
          if (before && after && before.status !== after.status) {
            // What the provider changed by itself (a renewal's payment failed, the subscription ended) is the system's.
            await recordAudit(v.db, {
              orgId: v.orgId,
              actor: { type: "system", id: "payment-provider", name: "Payment provider" },
              action: "billing.status_changed",
              object: { type: "subscription", id: v.orgId, label: PLANS[after.plan].name },
              details: { from: before.status, to: after.status },
              address: null,
            });
          }
        },
        mark,
      );
    }
  }
  // An event about a customer Cove does not know yet is not recorded, so a redelivery is looked at again.
  if (event.object && !orgId) return { received: true, duplicate: false };
  const inserted = await db
    .insert(billingEvents)
    .values({ id: key, type: event.type, organizationId: orgId })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return { received: true, duplicate: inserted.length === 0 };
}

/** Organizations whose subscription ended at least this long ago (the canceled-data lifecycle's deletion). */
export async function canceledBefore(db: Db, cutoff: Date): Promise<string[]> {
  const rows = await db
    .select({ orgId: subscriptions.organizationId })
    .from(subscriptions)
    .innerJoin(organizations, eq(organizations.id, subscriptions.organizationId))
    .where(
      and(eq(organizations.subscriptionStatus, "canceled"), sql`${subscriptions.endedAt} <= ${cutoff.toISOString()}`),
    );
  return rows.map((r) => r.orgId);
}
