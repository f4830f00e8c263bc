import { createHmac } from "node:crypto";
import type { Invoice } from "@cove/contract/billing.ts";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SIGNATURE_HEADER } from "../../src/modules/billing/test.provider.ts";
import { now } from "../../src/platform/clock.ts";
import { queryRows } from "../../src/platform/db.ts";
import { bearer, registerOrg, testAppForFile, unique } from "../helpers.ts";
import { clockAhead, providerSecret, subscription, testCard } from "../support/billing.ts";

const t = testAppForFile();
afterEach(() => {
  clockAhead(0);
});

const secret = () => providerSecret(t.database.db);

async function deliver(event: object, opts: { signature?: string; at?: number } = {}) {
  const body = JSON.stringify(event);
  const t0 = opts.at ?? Math.floor(now().getTime() / 1000);
  const signature =
    opts.signature ??
    `t=${t0},v1=${createHmac("sha256", await secret())
      .update(`${t0}.${body}`)
      .digest("hex")}`;
  return t.app.inject({
    method: "POST",
    url: "/api/billing/webhook",
    headers: { "content-type": "application/json", [TEST_SIGNATURE_HEADER]: signature },
    payload: body,
  });
}

const event = (id: string, type: string, object: { id: string; object: string }) => ({
  id,
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object },
});

async function subscribed() {
  const org = await registerOrg(t.app);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/billing/subscribe",
    headers: bearer(org.token),
    payload: { plan: "starter", paymentMethodId: await testCard(t.app, org.token) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await queryRows<{ subscriptionId: string }>(
    t.database.db,
    sql`select subscription_id as "subscriptionId" from subscriptions where organization_id = ${org.user.organizationId}`,
  );
  if (!row) throw new Error("no subscription row");
  return { ...org, subscriptionId: row.subscriptionId };
}

describe("POST /api/billing/webhook (test provider)", () => {
  it("answers 400 to a missing, wrong, or stale signature, and applies nothing", async () => {
    const { subscriptionId } = await subscribed();
    const e = event("evt_bad_1", "customer.subscription.updated", { id: subscriptionId, object: "subscription" });
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(e),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/signature is missing or does not match/);
    const wrong = await deliver(e, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` });
    expect(wrong.statusCode).toBe(400);
    const stale = await deliver(e, { at: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.statusCode).toBe(400);
    // A body changed after signing no longer matches.
    const body = JSON.stringify(e);
    const t0 = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", await secret())
      .update(`${t0}.${body}`)
      .digest("hex");
    const tampered = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json", [TEST_SIGNATURE_HEADER]: `t=${t0},v1=${sig}` },
      payload: body.replace("evt_bad_1", "evt_bad_2"),
    });
    expect(tampered.statusCode).toBe(400);
    const [seen] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from billing_events where id like 'test:evt_bad_%'`,
    );
    expect(seen?.n).toBe(0);
  });

  it("applies an event once: a second delivery is acknowledged as a duplicate and changes nothing", async () => {
    const { token, subscriptionId } = await subscribed();
    // Event ids are unique per run: a PostgreSQL test database keeps the events of earlier runs.
    const id = `evt_replay_${unique()}`;
    const e = event(id, "customer.subscription.updated", { id: subscriptionId, object: "subscription" });
    const first = await deliver(e);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const second = await deliver(e);
    expect(second.json()).toEqual({ received: true, duplicate: true });
    const [rows] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from billing_events where id = ${`test:${id}`}`,
    );
    expect(rows?.n).toBe(1);
    expect((await subscription(t.app, token)).status).toBe("active");
  });

  it("is not moved back by an event delivered late: the provider's current state is what is applied", async () => {
    const { token, subscriptionId } = await subscribed();
    // The card fails a renewal (past due), then a new card pays: the state is active again.
    await t.app.inject({
      method: "POST",
      url: "/api/billing/payment-method",
      headers: bearer(token),
      payload: { paymentMethodId: await testCard(t.app, token, "4000000000000341") },
    });
    clockAhead(31);
    const advance = await t.app.inject({
      method: "POST",
      url: "/api/test-provider/clock/advance",
      headers: bearer(token),
      payload: { days: 1 },
    });
    expect(advance.statusCode).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("past_due");
    const [failed] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from test_provider_objects where type = 'invoice' and data->>'subscription' = ${subscriptionId}
          and data->>'status' = 'open'`,
    );
    if (!failed) throw new Error("no open invoice");
    const paid = await t.app.inject({
      method: "POST",
      url: "/api/billing/payment-method",
      headers: bearer(token),
      payload: { paymentMethodId: await testCard(t.app, token) },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("active");

    // The payment_failed event of the renewal arrives now, after the newer state.
    const late = await deliver(
      event(`evt_late_${unique()}`, "invoice.payment_failed", { id: failed.id, object: "invoice" }),
    );
    expect(late.statusCode).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("active");
    const invoices = (
      await t.app.inject({ method: "GET", url: "/api/billing/invoices", headers: bearer(token) })
    ).json().invoices as Invoice[];
    expect(invoices.find((i) => i.number && i.status !== "paid")).toBeUndefined();
  });

  it("acknowledges an event about an unknown object or customer without applying anything", async () => {
    const res = await deliver(event(`evt_other_${unique()}`, "customer.created", { id: "cus_x", object: "customer" }));
    expect(res.json()).toEqual({ received: true, duplicate: false });
  });
});
