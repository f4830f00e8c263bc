import type { SubscriptionAnswer } from "@cove/contract/billing.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { setClock } from "../../src/platform/clock.ts";
import { type Db, queryRows } from "../../src/platform/db.ts";
import { bearer } from "../helpers.ts";

export const DAY = 86_400_000;

/** Moves the billing clock (platform/clock.ts) days from the real time; 0 puts it back. */
export function clockAhead(days: number, hours = 0): Date {
  const offset = days * DAY + hours * 3_600_000;
  setClock(offset === 0 ? null : () => new Date(Date.now() + offset));
  return new Date(Date.now() + offset);
}

/** Sets the billing clock to a moment. */
export function clockAt(at: Date): void {
  setClock(() => new Date(at.getTime()));
}

/** A payment method from the test provider's card form, as the browser creates it. */
export async function testCard(app: FastifyInstance, token: string, number = "4242 4242 4242 4242"): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/test-provider/payment-methods",
    headers: bearer(token),
    payload: {
      number,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      cvc: number.replace(/\D/g, "").startsWith("3") ? "1234" : "123",
      name: "Ada Lovelace",
      address: { line1: "12 Analytical Row", city: "London", postal_code: "N1 7AA", country: "GB" },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

export async function subscription(app: FastifyInstance, token: string): Promise<SubscriptionAnswer> {
  const res = await app.inject({ method: "GET", url: "/api/billing/subscription", headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SubscriptionAnswer;
}

/** Waits until the subscription answer satisfies check (webhooks arrive through the job queue). */
export async function waitForSubscription(
  app: FastifyInstance,
  token: string,
  check: (s: SubscriptionAnswer) => boolean,
  timeoutMs = 15_000,
): Promise<SubscriptionAnswer> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await subscription(app, token);
    if (check(s)) return s;
    if (Date.now() > until) throw new Error(`subscription never matched: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * The secret the test provider signs its events with, kept in its own table. The provider makes it when it first
 * signs or checks an event, which its webhook job may not have done yet: made here the same way if it is missing.
 */
export async function providerSecret(db: Db): Promise<string> {
  await db.execute(
    sql`insert into test_provider_objects (id, type, data)
        values ('webhook_secret', 'webhook_secret', jsonb_build_object('secret', md5(random()::text)))
        on conflict do nothing`,
  );
  const [row] = await queryRows<{ secret: string }>(
    db,
    sql`select data->>'secret' as secret from test_provider_objects where id = 'webhook_secret'`,
  );
  if (!row) throw new Error("no webhook secret");
  return row.secret;
}
