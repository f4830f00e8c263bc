import type { PlanId } from "@cove/contract/constants.ts";
import { type SQL, sql } from "drizzle-orm";
import { testProviderObjects } from "../../db/schema/billing.ts";
import { type Db, queryRows } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { CardBehaviour } from "./test-cards.ts";

/** The test provider's records, as a card provider keeps them on its side: JSON documents by id and kind. */

export interface Customer {
  org_id: string;
  name: string;
  email: string;
  default_payment_method: string | null;
}
export interface PaymentMethod {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: CardBehaviour;
  billing_name: string | null;
  billing_address: Record<string, string | null> | null;
  customer: string | null;
}
export interface Subscription {
  customer: string;
  plan: PlanId;
  status: "active" | "past_due" | "incomplete" | "incomplete_expired" | "canceled";
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  latest_invoice: string | null;
  default_payment_method: string;
  next_attempt_at: number | null;
  attempts: number;
  /** Cents carried to the next invoice: a plan change's proration (owed), or a credit left over (negative). */
  proration?: number;
}
export interface InvoiceLine {
  description: string;
  amount: number;
}
export interface Invoice {
  customer: string;
  subscription: string;
  number: string;
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: "open" | "paid" | "void";
  created: number;
  period_start: number;
  period_end: number;
  payment_intent: string | null;
  /** Absent on invoices written before lines were kept. */
  lines?: InvoiceLine[];
}
export interface PaymentIntent {
  invoice: string;
  client_secret: string;
  status: "requires_action" | "succeeded" | "requires_payment_method" | "canceled";
}

export type Objects = {
  customer: Customer;
  payment_method: PaymentMethod;
  subscription: Subscription;
  invoice: Invoice;
  payment_intent: PaymentIntent;
  webhook_secret: { secret: string };
};
export type Kind = keyof Objects;

/** Reads and writes the test provider's documents, as the owner role, outside any request transaction. */
export function createStore(db: Db) {
  async function get<K extends Kind>(kind: K, id: string): Promise<Objects[K] | null> {
    const [row] = await queryRows<{ data: Objects[K] }>(
      db,
      sql`select data from test_provider_objects where id = ${id} and type = ${kind}`,
    );
    return row?.data ?? null;
  }
  async function must<K extends Kind>(kind: K, id: string): Promise<Objects[K]> {
    const found = await get(kind, id);
    if (!found) throw new AppError("BAD_REQUEST", `No such ${kind.replace("_", " ")}: ${id}`);
    return found;
  }
  async function put<K extends Kind>(kind: K, id: string, data: Objects[K]): Promise<void> {
    await db
      .insert(testProviderObjects)
      .values({ id, type: kind, data: data as unknown as Record<string, unknown> })
      .onConflictDoUpdate({
        target: testProviderObjects.id,
        set: { data: data as unknown as Record<string, unknown> },
      });
  }
  async function all<K extends Kind>(kind: K, where: SQL = sql`true`): Promise<{ id: string; data: Objects[K] }[]> {
    return queryRows(db, sql`select id, data from test_provider_objects where type = ${kind} and ${where} order by id`);
  }

  return { get, must, put, all };
}
