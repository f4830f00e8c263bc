import type { Invoice, SubscribeAnswer } from "@cove/contract/billing.ts";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { queryRows } from "../../src/platform/db.ts";
import { bearer, client, createTestApp, errorAnswer, onPostgres, registerOrg, type TestApp } from "../helpers.ts";
import { subscription } from "../support/billing.ts";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe.ts";
import { pdfText } from "../support/pdf-text.ts";

let stripe: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    payments: {
      provider: "stripe",
      secretKey: "sk_test_cove",
      publishableKey: "pk_test_cove",
      webhookSecret: stripe.webhookSecret,
      api: stripe.api,
    },
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const call = client(() => t.app);

const webhook = (delivery: { body: string; signature: string }) =>
  t.app.inject({
    method: "POST",
    url: "/api/billing/webhook",
    headers: { "content-type": "application/json", "stripe-signature": delivery.signature },
    payload: delivery.body,
  });

async function subscriptionIdOf(orgId: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select subscription_id as id from subscriptions where organization_id = ${orgId}`,
  );
  if (!row?.id) throw new Error("no subscription id");
  return row.id;
}

const invoicesOf = async (token: string) =>
  (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];

async function subscribed(number = "4242424242424242", plan = "starter") {
  const org = await registerOrg(t.app);
  const res = await call(org.token, "POST", "/api/billing/subscribe", {
    plan,
    paymentMethodId: stripe.paymentMethod(number),
  });
  return { ...org, res };
}

describe("PAYMENT_PROVIDER=stripe (the stripe SDK against a local server that speaks Stripe's API)", () => {
  it("tells the browser to load Stripe.js with the publishable key, and allows it in the CSP", async () => {
    const { token } = await registerOrg(t.app);
    const res = await call(token, "GET", "/api/billing/config");
    expect(res.json()).toEqual({ provider: "stripe", publishableKey: "pk_test_cove" });
    expect(res.headers["content-security-policy"]).toContain("https://js.stripe.com");
  });

  it("subscribes on Stripe prices (created once by lookup key), keeping only the card summary and address", async () => {
    const { token, user, res } = await subscribed();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "active", message: "Subscription created successfully!" });
    const s = await subscription(t.app, token);
    expect(s).toMatchObject({
      plan: "starter",
      status: "active",
      card: { brand: "visa", last4: "4242", exp_year: 2031 },
    });
    const invoices = (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];
    expect(invoices).toMatchObject([{ amount_due: 2900, status: "paid", url: expect.stringContaining("https://") }]);
    const prices = [...stripe.objects.values()].filter((o) => o.object === "price");
    expect(prices.map((p) => p.lookup_key).sort()).toEqual([
      "cove_business_monthly",
      "cove_growth_monthly",
      "cove_starter_monthly",
    ]);
    // A second organization reuses the prices.
    await subscribed();
    expect([...stripe.objects.values()].filter((o) => o.object === "price")).toHaveLength(3);
    const sub = stripe.objects.get(await subscriptionIdOf(user.organizationId));
    expect(sub?.metadata).toMatchObject({ organization_id: user.organizationId, plan: "starter" });
  });

  it("has none of the test provider's routes: its card form, confirmation step and billing clock answer 404", async () => {
    const { token } = await registerOrg(t.app);
    const tried = [
      ["/api/test-provider/payment-methods", { number: "4242424242424242", exp_month: 12, exp_year: 2031, cvc: "123" }],
      ["/api/test-provider/confirm", { client_secret: "pi_123_secret_456", outcome: "complete" }],
      ["/api/test-provider/clock/advance", { days: 31 }],
    ] as const;
    for (const [url, body] of tried) {
      const res = await call(token, "POST", url, body);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it("shows Stripe's decline message", async () => {
    const { token, res } = await subscribed("4000000000000002");
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual(errorAnswer("Your card was declined.", "PAYMENT_FAILED"));
    expect((await subscription(t.app, token)).status).toBe("trialing");
  });

  it("a card that needs authentication answers the invoice's clientSecret; the paid webhook makes it active", async () => {
    const { token, user, res } = await subscribed("4000002500003155", "growth");
    const answer = res.json() as SubscribeAnswer;
    expect(answer).toMatchObject({ status: "requires_confirmation" });
    expect(answer.clientSecret).toMatch(/^pi_fake_.*_secret_/);
    stripe.confirm(answer.clientSecret ?? "");
    const subId = await subscriptionIdOf(user.organizationId);
    const invoiceId = String(stripe.objects.get(subId)?.latest_invoice);
    expect((await webhook(stripe.event("invoice.paid", invoiceId))).statusCode).toBe(200);
    expect(await subscription(t.app, token)).toMatchObject({ status: "active", plan: "growth" });
  });

  it("a 3-D Secure step that fails, then completes: one paid invoice and no unpaid one", async () => {
    const { token, user, res } = await subscribed("4000002500003155", "starter");
    const answer = res.json() as SubscribeAnswer;
    expect(answer.status).toBe("requires_confirmation");
    const invoiceId = String(stripe.objects.get(await subscriptionIdOf(user.organizationId))?.latest_invoice);
    expect(await invoicesOf(token)).toEqual([]);
    // Stripe.js reports the failed authentication to the browser; Stripe tells Cove the invoice's payment failed.
    expect((await webhook(stripe.event("invoice.payment_failed", invoiceId))).statusCode).toBe(200);
    expect(await invoicesOf(token)).toEqual([]);
    // The person tries the confirmation again and passes it.
    stripe.confirm(answer.clientSecret ?? "");
    expect((await webhook(stripe.event("invoice.paid", invoiceId))).statusCode).toBe(200);
    expect((await invoicesOf(token)).map((i) => [i.status, i.amount_due])).toEqual([["paid", 2900]]);
    expect((await subscription(t.app, token)).status).toBe("active");
  });

  it("a 3-D Secure attempt left, then a new card: Stripe voids the first invoice and Cove lists only the paid one", async () => {
    const { token, user, res } = await subscribed("4000002500003155", "growth");
    const left = res.json() as SubscribeAnswer;
    const firstSub = await subscriptionIdOf(user.organizationId);
    const firstInvoice = String(stripe.objects.get(firstSub)?.latest_invoice);

    const again = await call(token, "POST", "/api/billing/subscribe", {
      plan: "growth",
      paymentMethodId: stripe.paymentMethod("4242424242424242"),
    });
    expect(again.json()).toMatchObject({ status: "active" });
    expect(stripe.requests).toContain(`POST /v1/invoices/${firstInvoice}/void`);
    expect(stripe.objects.get(firstInvoice)?.status).toBe("void");
    expect(stripe.objects.get(firstSub)?.status).toBe("incomplete_expired");
    // Its events arrive late: still nothing owed, and the left attempt's payment cannot be confirmed any more.
    expect((await webhook(stripe.event("invoice.voided", firstInvoice))).statusCode).toBe(200);
    expect((await webhook(stripe.event("customer.subscription.deleted", firstSub))).statusCode).toBe(200);
    expect(() => stripe.confirm(left.clientSecret ?? "")).toThrow(/void invoice/);
    expect((await invoicesOf(token)).map((i) => [i.status, i.amount_due])).toEqual([["paid", 5900]]);
    expect(await subscription(t.app, token)).toMatchObject({ status: "active", plan: "growth" });
  });

  it("an invoice's PDF lists Stripe's lines", async () => {
    const { token } = await subscribed("4242424242424242", "business");
    const [invoice] = await invoicesOf(token);
    const res = await t.app.inject({
      method: "GET",
      url: `/api/billing/invoices/${invoice?.id}/pdf`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain("1 × cove_business_monthly (at $99.00 / month)");
    expect(text).toMatch(/Total\s*\$99\.00/);
  });

  it("verifies webhook signatures: a wrong secret or a changed body answers 400", async () => {
    const { user } = await subscribed();
    const subId = await subscriptionIdOf(user.organizationId);
    const wrong = await webhook(stripe.event("customer.subscription.updated", subId, { secret: "whsec_someoneElse" }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/signature/);
    const good = stripe.event("customer.subscription.updated", subId);
    const changed = await webhook({
      body: good.body.replace('"livemode":false', '"livemode":true'),
      signature: good.signature,
    });
    expect(changed.statusCode).toBe(400);
    const none = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json" },
      payload: good.body,
    });
    expect(none.statusCode).toBe(400);
  });

  it("payment failed -> past due, payment succeeded -> active; a replay is applied once; a late failure changes nothing", async () => {
    const { token, user } = await subscribed();
    const subId = await subscriptionIdOf(user.organizationId);
    const failedSub = stripe.renew(subId, false);
    const failed = stripe.event("invoice.payment_failed", String(failedSub.latest_invoice));
    expect((await webhook(failed)).json()).toEqual({ received: true, duplicate: false });
    expect((await subscription(t.app, token)).status).toBe("past_due");
    expect((await webhook(failed)).json()).toEqual({ received: true, duplicate: true });

    stripe.payOpen(subId);
    const paid = stripe.event("invoice.payment_succeeded", String(failedSub.latest_invoice));
    expect((await webhook(paid)).statusCode).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("active");
    // The failure again, as a new delivery of an older event: the current state (paid) is what is applied.
    const late = stripe.event("invoice.payment_failed", String(failedSub.latest_invoice), { created: 1 });
    expect((await webhook(late)).json().duplicate).toBe(false);
    expect((await subscription(t.app, token)).status).toBe("active");
  });

  it("cancel at period end, then customer.subscription.deleted ends it; change of plan moves the price", async () => {
    const { token, user } = await subscribed("4242424242424242", "business");
    const subId = await subscriptionIdOf(user.organizationId);
    expect((await call(token, "POST", "/api/billing/change-plan", { plan: "growth" })).statusCode).toBe(200);
    const items = stripe.objects.get(subId)?.items as { data: { price: { lookup_key: string } }[] } | undefined;
    const item = items?.data[0];
    expect(item?.price.lookup_key).toBe("cove_growth_monthly");

    const cancel = await call(token, "POST", "/api/billing/cancel");
    expect(cancel.json().message).toBe("Subscription will be cancelled at the end of the current period");
    expect(stripe.objects.get(subId)?.cancel_at_period_end).toBe(true);
    stripe.end(subId);
    expect((await webhook(stripe.event("customer.subscription.deleted", subId))).statusCode).toBe(200);
    const s = await subscription(t.app, token);
    expect(s.status).toBe("canceled");
    expect(s.access.read_only_from).not.toBeNull();
  });

  it("a webhook whose answer from Stripe was overtaken by a newer one's does not write the older state over it", async () => {
    const { token, user } = await subscribed();
    const subId = await subscriptionIdOf(user.organizationId);
    // The first webhook's read of the subscription is answered (active) but arrives late.
    const held = stripe.hold("GET", `/v1/subscriptions/${subId}`);
    const first = webhook(stripe.event("customer.subscription.updated", subId));
    await held.asked;
    // Meanwhile the subscription ends and the second webhook reads and applies that.
    stripe.end(subId);
    const second = await webhook(stripe.event("customer.subscription.deleted", subId));
    expect(second.statusCode, second.body).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("canceled");
    held.release();
    const late = await first;
    expect(late.statusCode, late.body).toBe(200);
    expect((await subscription(t.app, token)).status).toBe("canceled");
  });

  it("a user's change whose answer from Stripe was overtaken by a webhook's does not write the older state", async () => {
    const { token, user } = await subscribed();
    const subId = await subscriptionIdOf(user.organizationId);
    // Cancel at the period's end: the update, then the read of the subscription (active, to cancel), answered late.
    const held = stripe.hold("GET", `/v1/subscriptions/${subId}`);
    const cancel = call(token, "POST", "/api/billing/cancel");
    await held.asked;
    stripe.end(subId);
    const ended = await webhook(stripe.event("customer.subscription.deleted", subId));
    expect(ended.statusCode, ended.body).toBe(200);
    held.release();
    const res = await cancel;
    expect(res.statusCode, res.body).toBe(200);
    const s = await subscription(t.app, token);
    expect(s.status).toBe("canceled");
    expect(s.access.read_only_from).not.toBeNull();
  });

  it("a webhook that loses every attempt to newer syncs gives up with 409, writes nothing, and applies when redelivered", async () => {
    const { token, user } = await subscribed();
    const orgId = user.organizationId;
    const subId = await subscriptionIdOf(orgId);
    const path = `/v1/subscriptions/${subId}`;
    const generation = async () =>
      (
        await queryRows<{ g: number }>(
          t.database.db,
          sql`select sync_generation as g from subscriptions where organization_id = ${orgId}`,
        )
      )[0]?.g;
    const before = await generation();
    const reads = () => stripe.requests.filter((r) => r === `GET ${path}`).length;
    const readsBefore = reads();

    let held = stripe.hold("GET", path);
    const delivery = stripe.event("customer.subscription.updated", subId);
    const first = webhook(delivery);
    for (let round = 1; round <= 5; round++) {
      // The first webhook's read (attempt `round`) is answered but arrives late; it must not have finished meanwhile.
      const waiting = await Promise.race([held.asked.then(() => true), first.then(() => false)]);
      expect(waiting, `the first webhook finished before its attempt ${round}`).toBe(true);
      // Meanwhile the subscription changes and another webhook reads and applies that: the generation moves.
      if (round % 2 === 1) stripe.renew(subId, false);
      else stripe.payOpen(subId);
      const other = await webhook(stripe.event("customer.subscription.updated", subId));
      expect(other.statusCode, other.body).toBe(200);
      const next = round < 5 ? stripe.hold("GET", path) : null;
      held.release();
      if (next) held = next;
    }
    const late = await first;
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toEqual(
      errorAnswer("Your subscription changed several times at once. Reload the page to see it.", "CONFLICT"),
    );
    // Five reads by the first webhook, five by the others: it gave up after its fifth instead of reading again.
    expect(reads() - readsBefore).toBe(10);
    // Nothing of its older answers was written: the newest state (past due, applied by the fifth other webhook)
    // stands, only the others' syncs were counted, and the event is not recorded, so Stripe's redelivery is applied.
    expect((await subscription(t.app, token)).status).toBe("past_due");
    expect(await generation()).toBe((before ?? 0) + 5);
    const eventId = (JSON.parse(delivery.body) as { id: string }).id;
    const recorded = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from billing_events where id = ${`stripe:${eventId}`}`,
    );
    expect(recorded).toEqual([]);

    // The card is paid again; Stripe redelivers the event, and with no sync in between it is applied.
    stripe.payOpen(subId);
    const again = await webhook(delivery);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: false });
    expect((await subscription(t.app, token)).status).toBe("active");
    expect(await generation()).toBe((before ?? 0) + 6);
  });

  it.skipIf(!onPostgres)(
    "a webhook waits behind a subscribe of the same organization instead of deadlocking with it (PostgreSQL)",
    async () => {
      const { user } = await subscribed();
      const orgId = user.organizationId;
      const subId = await subscriptionIdOf(orgId);
      // Another transaction of the organization's billing, as subscribe runs one: the organization row first, then
      // the subscription row.
      const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await other.connect();
      try {
        await other.query("begin");
        await other.query("select id from organizations where id = $1 for no key update", [orgId]);
        const delivery = webhook(stripe.event("customer.subscription.updated", subId));
        // Let the webhook reach its transaction and wait there.
        for (let i = 0; i < 50; i++) {
          const waiting = await other.query(
            "select 1 from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()",
          );
          if (waiting.rowCount) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        // Holding the subscription row here, a webhook that had taken it first would wait for us while we wait for it.
        await other.query("update subscriptions set updated_at = now() where organization_id = $1", [orgId]);
        await other.query("commit");
        const res = await delivery;
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        await other.end();
      }
    },
  );

  it("answers 502 with a clear message when Stripe refuses the key", async () => {
    const broken = await createTestApp({
      payments: {
        provider: "stripe",
        secretKey: "sk_test_wrong",
        publishableKey: "pk_test_x",
        webhookSecret: "whsec_x",
        api: stripe.api,
      },
    });
    try {
      const org = await registerOrg(broken.app);
      const res = await broken.app.inject({
        method: "POST",
        url: "/api/billing/subscribe",
        headers: bearer(org.token),
        payload: { plan: "starter", paymentMethodId: stripe.paymentMethod("4242424242424242") },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toMatch(/payment provider could not complete the request.*Nothing was charged/);
      // The half-started subscribe is released: the next try is not refused as "already being processed".
      const again = await broken.app.inject({
        method: "POST",
        url: "/api/billing/subscribe",
        headers: bearer(org.token),
        payload: { plan: "starter", paymentMethodId: "pm_x" },
      });
      expect(again.statusCode).toBe(502);
    } finally {
      await broken.close();
    }
  });
});

describe("configuration", () => {
  it("requires the three Stripe settings with PAYMENT_PROVIDER=stripe, naming the missing ones", () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_abc" })).toThrow(ConfigError);
    try {
      loadConfig({ PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_abc" });
    } catch (err) {
      expect((err as Error).message).toContain("STRIPE_PUBLISHABLE_KEY: required when PAYMENT_PROVIDER is stripe");
      expect((err as Error).message).toContain("STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER is stripe");
    }
    expect(() => loadConfig({ PAYMENT_PROVIDER: "paypal" })).toThrow(/PAYMENT_PROVIDER: use test or stripe/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "pk_test_abc" })).toThrow(/STRIPE_SECRET_KEY/);
    expect(loadConfig({}).payments).toEqual({ provider: "test" });
    expect(
      loadConfig({
        PAYMENT_PROVIDER: "stripe",
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
        STRIPE_WEBHOOK_SECRET: "whsec_abc",
      }).payments,
    ).toMatchObject({ provider: "stripe", secretKey: "sk_test_abc" });
  });
});
