import { PAYMENT_PROVIDERS } from "@cove/contract/billing.ts";
import { PLAN_IDS } from "@cove/contract/constants.ts";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns.ts";
import { organizationId, tenantRow } from "./organizations.ts";

/**
 * An organization's account at the payment provider and its subscription, as last read from the provider. The
 * effective plan and status are on organizations (plan, subscription_status); this holds what the provider knows and
 * the dates that decide read-only mode. Only the card's brand, last 4 digits and expiry and the billing address are
 * kept (docs/product.md, "What Cove does": privacy policy).
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    organizationId: organizationId().primaryKey(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    customerId: text("customer_id"),
    subscriptionId: text("subscription_id"),
    plan: text("plan", { enum: PLAN_IDS }),
    /** The provider's own status (active, past_due, incomplete, canceled, unpaid...). */
    providerStatus: text("provider_status"),
    currentPeriodStart: timestamptz("current_period_start"),
    currentPeriodEnd: timestamptz("current_period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** When the subscription ended (canceled): the canceled-data lifecycle counts from here. */
    endedAt: timestamptz("ended_at"),
    /** When a renewal first failed; the grace period counts from here. Cleared once paid. */
    pastDueSince: timestamptz("past_due_since"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    cardExpMonth: integer("card_exp_month"),
    cardExpYear: integer("card_exp_year"),
    billingName: text("billing_name"),
    billingAddress: jsonb("billing_address").$type<Record<string, string | null>>(),
    /** Set while a subscribe call talks to the provider, so a second one at the same time is refused. */
    pendingSince: timestamptz("pending_since"),
    /** Counts the provider's states applied here; a sync applies only if it has not moved since it read the provider. */
    syncGeneration: integer("sync_generation").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subscriptions_provider_customer_unique").on(t.provider, t.customerId),
    index("subscriptions_provider_subscription_idx").on(t.provider, t.subscriptionId),
  ],
);

/** Invoices as the provider reported them (subscribe, renewals, webhooks), for the billing page. */
export const invoices = pgTable(
  "invoices",
  {
    ...tenantRow(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerInvoiceId: text("provider_invoice_id").notNull(),
    number: text("number"),
    amountDue: integer("amount_due").notNull(),
    amountPaid: integer("amount_paid").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    periodStart: timestamptz("period_start"),
    periodEnd: timestamptz("period_end"),
    url: text("url"),
    /** What the amount is made of, in cents (the plan's period, a plan change's proration or credit), for the PDF. */
    lines: jsonb("lines").$type<{ description: string; amount: number }[]>(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("invoices_provider_invoice_unique").on(t.organizationId, t.provider, t.providerInvoiceId),
    index("invoices_org_created_idx").on(t.organizationId, t.createdAt.desc()),
  ],
);

/**
 * Who the organization's invoices are addressed to, as its admins set it on the Billing page: the name and address
 * printed on each invoice's PDF (and a tax number where the organization has one). Without a row, the invoice shows
 * the organization's name and the card's billing address.
 */
export const billingDetails = pgTable("billing_details", {
  organizationId: organizationId().primaryKey(),
  name: text("name").notNull(),
  addressLine1: text("address_line1"),
  addressLine2: text("address_line2"),
  city: text("city"),
  region: text("region"),
  postalCode: text("postal_code"),
  /** ISO 3166-1 alpha-2. */
  country: text("country"),
  taxId: text("tax_id"),
  updatedAt: updatedAt(),
});

/**
 * Webhook events already applied, by the provider's event id: a redelivered event is acknowledged and not applied
 * again. Not tenant data (an event arrives before its organization is known); only the owner role reads it.
 */
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  organizationId: uuid("organization_id"),
  receivedAt: createdAt(),
});

/**
 * The built-in test payment provider's own records (customers, payment methods, subscriptions, invoices, payment
 * intents), as a card provider keeps them on its side. Only the provider's code reads them, as the owner role; they
 * hold no card number, only what a provider shows back (brand, last 4 digits, expiry) and how the test card behaves.
 */
export const testProviderObjects = pgTable(
  "test_provider_objects",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("test_provider_objects_type_idx").on(t.type)],
);
