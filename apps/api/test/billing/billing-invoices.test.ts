import { createHmac } from "node:crypto";
import type { Invoice, SubscribeAnswer } from "@cove/contract/billing.ts";
import type { BillingDetailsAnswer, PlanChangePreview } from "@cove/contract/billing-account.ts";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SIGNATURE_HEADER } from "../../src/modules/billing/test.provider.ts";
import { now } from "../../src/platform/clock.ts";
import { queryRows } from "../../src/platform/db.ts";
import { addMember, bearer, client, errorAnswer, registerOrg, testAppForFile } from "../helpers.ts";
import { clockAhead, clockAt, DAY, providerSecret, subscription, testCard } from "../support/billing.ts";
import { pdfText } from "../support/pdf-text.ts";

const t = testAppForFile();
afterEach(() => {
  clockAhead(0);
});

const call = client(() => t.app);
const THREE_D_SECURE = "4000 0025 0000 3155";

async function subscribe(token: string, plan: string, number = "4242424242424242") {
  return call(token, "POST", "/api/billing/subscribe", { plan, paymentMethodId: await testCard(t.app, token, number) });
}

const confirm = (token: string, clientSecret: string | undefined, outcome: "complete" | "fail") =>
  call(token, "POST", "/api/test-provider/confirm", { client_secret: clientSecret, outcome });

const listed = async (token: string) =>
  (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];

/** The test provider's own invoices of an organization's customer, as the provider keeps them. */
async function providerInvoices(orgId: string) {
  return queryRows<{ id: string; status: string; subscription: string }>(
    t.database.db,
    sql`select o.id, o.data->>'status' as status, o.data->>'subscription' as subscription
        from test_provider_objects o join subscriptions s on s.customer_id = o.data->>'customer'
        where o.type = 'invoice' and s.organization_id = ${orgId} order by o.data->>'number'`,
  );
}

/** A signed delivery of the test provider's event, as its webhook job sends it. */
async function deliver(type: string, object: { id: string; object: "invoice" | "subscription" }) {
  const body = JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, type, created: 0, data: { object } });
  const at = Math.floor(now().getTime() / 1000);
  const signature = `t=${at},v1=${createHmac("sha256", await providerSecret(t.database.db))
    .update(`${at}.${body}`)
    .digest("hex")}`;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/billing/webhook",
    headers: { "content-type": "application/json", [TEST_SIGNATURE_HEADER]: signature },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe("a 3-D Secure payment that fails or is left leaves nothing owed (test provider)", () => {
  it("failed, then completed: one paid invoice and no unpaid one", async () => {
    const { token } = await registerOrg(t.app);
    const answer = (await subscribe(token, "growth", THREE_D_SECURE)).json() as SubscribeAnswer;
    expect(answer.status).toBe("requires_confirmation");
    // Waiting for the bank: nothing is owed yet.
    expect(await listed(token)).toEqual([]);

    const failed = await confirm(token, answer.clientSecret, "fail");
    expect(failed.statusCode).toBe(402);
    expect(await listed(token)).toEqual([]);

    expect((await confirm(token, answer.clientSecret, "complete")).statusCode).toBe(200);
    expect(await subscription(t.app, token)).toMatchObject({ status: "active", plan: "growth" });
    const invoices = await listed(token);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "paid", amount_due: 5900, amount_paid: 5900 });
  });

  it("failed, then a new attempt completed: the first attempt is voided at the provider and never listed", async () => {
    const { token, user } = await registerOrg(t.app);
    const first = (await subscribe(token, "starter", THREE_D_SECURE)).json() as SubscribeAnswer;
    expect((await confirm(token, first.clientSecret, "fail")).statusCode).toBe(402);

    const second = (await subscribe(token, "starter", THREE_D_SECURE)).json() as SubscribeAnswer;
    expect(second.status).toBe("requires_confirmation");
    expect(second.clientSecret).not.toBe(first.clientSecret);
    expect((await confirm(token, second.clientSecret, "complete")).statusCode).toBe(200);

    expect((await subscription(t.app, token)).status).toBe("active");
    expect((await listed(token)).map((i) => i.status)).toEqual(["paid"]);
    expect((await providerInvoices(user.organizationId)).map((i) => i.status)).toEqual(["void", "paid"]);
    // The first attempt's confirmation step can no longer be done: it would pay a voided invoice.
    const late = await confirm(token, first.clientSecret, "complete");
    expect(late.statusCode).toBe(402);
    expect(late.json().error).toMatch(/given up for a newer one/);
  });

  it("left unconfirmed, then paid with another card: one paid invoice; the provider's late events change nothing", async () => {
    const { token, user } = await registerOrg(t.app);
    const left = (await subscribe(token, "business", THREE_D_SECURE)).json() as SubscribeAnswer;
    expect(left.status).toBe("requires_confirmation");
    // The person closes the dialog, comes back and pays with a card that needs no confirmation.
    const paid = await subscribe(token, "business");
    expect(paid.json()).toMatchObject({ status: "active" });

    const invoices = await listed(token);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "paid", amount_due: 9900 });
    const atProvider = await providerInvoices(user.organizationId);
    expect(atProvider.map((i) => i.status)).toEqual(["void", "paid"]);

    // The events about the abandoned attempt, whenever they arrive, leave the list as it is.
    const [voided] = atProvider;
    if (!voided) throw new Error("no voided invoice");
    await deliver("invoice.payment_failed", { id: voided.id, object: "invoice" });
    await deliver("invoice.voided", { id: voided.id, object: "invoice" });
    await deliver("customer.subscription.deleted", { id: voided.subscription, object: "subscription" });
    expect((await listed(token)).map((i) => i.status)).toEqual(["paid"]);
    expect(await subscription(t.app, token)).toMatchObject({ status: "active", plan: "business" });
  });

  it("an Unpaid row recorded before this fix turns void, and leaves the list, when its attempt is given up", async () => {
    const { token, user } = await registerOrg(t.app);
    await subscribe(token, "starter", THREE_D_SECURE);
    const [attempt] = await providerInvoices(user.organizationId);
    if (!attempt) throw new Error("no invoice at the provider");
    // What the earlier code wrote at subscribe: the open invoice of the attempt, listed as Unpaid.
    await t.database.db.execute(
      sql`insert into invoices (organization_id, provider, provider_invoice_id, amount_due, amount_paid, currency, status, created_at)
          values (${user.organizationId}, 'test', ${attempt.id}, 2900, 0, 'usd', 'open', now())`,
    );
    expect((await listed(token)).map((i) => i.status)).toEqual(["open"]);

    expect((await subscribe(token, "starter")).statusCode).toBe(200);
    expect((await listed(token)).map((i) => i.status)).toEqual(["paid"]);
    const [old] = await queryRows<{ status: string }>(
      t.database.db,
      sql`select status from invoices where provider_invoice_id = ${attempt.id}`,
    );
    expect(old?.status).toBe("void");
  });

  it("an attempt left for a day is given up by the provider, as Stripe does after 23 hours; the trial goes on", async () => {
    const { token, user } = await registerOrg(t.app);
    await subscribe(token, "growth", THREE_D_SECURE);
    const moved = await call(token, "POST", "/api/test-provider/clock/advance", { days: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await providerInvoices(user.organizationId)).map((i) => i.status)).toEqual(["void"]);
    expect(await listed(token)).toEqual([]);
    const s = await subscription(t.app, token);
    expect(s).toMatchObject({ status: "trialing", subscription: null });
    // Nothing is left half-started: a new subscribe goes straight through.
    expect((await subscribe(token, "growth")).json()).toMatchObject({ status: "active" });
  });
});

describe("invoice PDFs (GET /api/billing/invoices/:id/pdf)", () => {
  async function subscribedOrg(organizationName?: string) {
    const org = await registerOrg(t.app, organizationName ? { organizationName } : {});
    expect((await subscribe(org.token, "starter")).statusCode).toBe(200);
    const [invoice] = await listed(org.token);
    if (!invoice) throw new Error("no invoice");
    return { ...org, invoice };
  }

  const pdf = (token: string, id: string) =>
    t.app.inject({ method: "GET", url: `/api/billing/invoices/${id}/pdf`, headers: bearer(token) });

  it("an admin downloads an invoice with the organization's name, billing details, period and amount", async () => {
    const { token, invoice } = await subscribedOrg("Ωmega Ünited Трейд");
    const saved = await call(token, "PUT", "/api/billing/details", {
      name: "Omega United Trading Ltd",
      address_line1: "4 Quay Street",
      address_line2: "Floor 2",
      city: "Manchester",
      region: "Greater Manchester",
      postal_code: "M3 3JE",
      country: "gb",
      tax_id: "GB123456789",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as BillingDetailsAnswer).details.country).toBe("GB");

    const res = await pdf(token, invoice.id);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    const text = await pdfText(res.rawPayload);
    const day = (iso: string | null) =>
      new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso ?? ""));
    for (const expected of [
      "Omega United Trading Ltd",
      "Ωmega Ünited Трейд",
      "4 Quay Street",
      "Floor 2",
      "M3 3JE Manchester, Greater Manchester",
      "United Kingdom",
      "Tax ID: GB123456789",
      `Invoice number: ${invoice.number}`,
      "Status: Paid",
      `${day(invoice.period_start)} – ${day(invoice.period_end)}`,
      "Cove Starter plan, monthly",
      "$29.00",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Amount due\s*\$0\.00/);
  });

  it("dates the invoice and its period by the organization's time zone, not the server's", async () => {
    const { token, user } = await subscribedOrg();
    // An invoice of its own (the provider's sync keeps the subscription's invoice as it has it): 12:30 UTC on
    // November 2 is already November 3 in Auckland (UTC+13), and still November 2 in Los Angeles.
    const [invoice] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into invoices (organization_id, provider, provider_invoice_id, number, amount_due, amount_paid, currency,
            status, period_start, period_end, created_at)
          values (${user.organizationId}, 'test', ${`in_zone_${user.organizationId}`}, 'TZ-0001', 2900, 2900, 'usd',
            'paid', '2026-11-02T12:30:00Z', '2026-12-02T12:30:00Z', '2026-11-02T12:30:00Z')
          returning id`,
    );
    if (!invoice) throw new Error("no invoice inserted");
    for (const [zone, date, period] of [
      ["Pacific/Auckland", "November 3, 2026", "November 3, 2026 – December 3, 2026"],
      ["America/Los_Angeles", "November 2, 2026", "November 2, 2026 – December 2, 2026"],
    ] as const) {
      await t.database.db.execute(sql`update organizations set timezone = ${zone} where id = ${user.organizationId}`);
      const text = await pdfText((await pdf(token, invoice.id)).rawPayload);
      expect(text, zone).toContain(`Date: ${date}`);
      expect(text, zone).toContain(period);
      // The Billing page dates the invoices, the period and the trial by the same zone, which its answers carry.
      expect((await call(token, "GET", "/api/billing/invoices")).json().timezone, zone).toBe(zone);
      expect((await call(token, "GET", "/api/billing/subscription")).json().timezone, zone).toBe(zone);
    }
  });

  it("without saved details, addresses it to the organization at the card's billing address", async () => {
    const { token, invoice } = await subscribedOrg("Analytical Engines");
    const details = (await call(token, "GET", "/api/billing/details")).json() as BillingDetailsAnswer;
    expect(details).toEqual({
      saved: false,
      details: {
        name: "Analytical Engines",
        address_line1: "12 Analytical Row",
        address_line2: null,
        city: "London",
        region: null,
        postal_code: "N1 7AA",
        country: "GB",
        tax_id: null,
      },
    });
    const text = await pdfText((await pdf(token, invoice.id)).rawPayload);
    expect(text).toContain("Analytical Engines");
    expect(text).toContain("12 Analytical Row");
    expect(text).toContain("N1 7AA London");
  });

  it("is for admins: agents get 403; another organization's invoice, or none, is not found and shows nothing", async () => {
    const a = await subscribedOrg();
    const b = await subscribedOrg();
    const agent = await addMember(t.database, a.user.organizationId);
    for (const [method, url, body] of [
      ["GET", `/api/billing/invoices/${a.invoice.id}/pdf`],
      ["GET", "/api/billing/details"],
      ["PUT", "/api/billing/details", { name: "Agent's idea" }],
      ["GET", "/api/billing/change-plan/preview?plan=growth"],
    ] as const) {
      const res = await call(agent.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("Only an administrator can do this.");
    }

    const other = await pdf(b.token, a.invoice.id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(errorAnswer("Invoice not found", "NOT_FOUND"));
    expect(other.body).not.toContain(a.invoice.number ?? "?");
    for (const id of ["not-an-id", "00000000-0000-4000-8000-000000000000"]) {
      expect((await pdf(a.token, id)).statusCode).toBe(404);
    }

    // Billing details are each organization's own.
    await call(a.token, "PUT", "/api/billing/details", { name: "Only A Ltd", city: "Leeds" });
    const seenByB = (await call(b.token, "GET", "/api/billing/details")).json() as BillingDetailsAnswer;
    expect(seenByB.saved).toBe(false);
    expect(JSON.stringify(seenByB)).not.toContain("Only A Ltd");
  });

  it("refuses billing details a person would have to fix, with clear messages, and keeps what was saved", async () => {
    const { token } = await registerOrg(t.app);
    await call(token, "PUT", "/api/billing/details", { name: "Kept Ltd" });
    for (const [body, message] of [
      [{ name: "  " }, "Billing name is required"],
      [{}, "Billing name"],
      [{ name: "X", country: "United Kingdom" }, "Country must be a two-letter country code, such as US or GB"],
      [{ name: "X", postal_code: "1".repeat(21) }, "Postal code must be at most 20 characters"],
      [{ name: "X", city: 12 }, "City must be text"],
      [{ name: "X", tax_id: "a\u0000b" }, "must not contain NUL"],
    ] as const) {
      const res = await call(token, "PUT", "/api/billing/details", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    const kept = (await call(token, "GET", "/api/billing/details")).json() as BillingDetailsAnswer;
    expect(kept).toMatchObject({ saved: true, details: { name: "Kept Ltd", city: null } });
    // Blank optional fields are cleared.
    await call(token, "PUT", "/api/billing/details", { name: "Kept Ltd", city: "York" });
    const cleared = await call(token, "PUT", "/api/billing/details", { name: "Kept Ltd", city: "  " });
    expect((cleared.json() as BillingDetailsAnswer).details.city).toBeNull();
  });
});

describe("a change of plan says what happens to the money, and the next invoice does it", () => {
  async function periodOf(orgId: string) {
    const [row] = await queryRows<{ start: Date; end: Date }>(
      t.database.db,
      sql`select current_period_start as start, current_period_end as "end" from subscriptions where organization_id = ${orgId}`,
    );
    if (!row) throw new Error("no subscription");
    return { start: new Date(row.start), end: new Date(row.end) };
  }

  it("a downgrade half-way through the period is a credit for the unused time, taken off the next invoice", async () => {
    const { token, user } = await registerOrg(t.app);
    expect((await subscribe(token, "business")).statusCode).toBe(200);
    const { start, end } = await periodOf(user.organizationId);
    const half = new Date(start.getTime() + (end.getTime() - start.getTime()) / 2);
    clockAt(half);

    const res = await call(token, "GET", "/api/billing/change-plan/preview?plan=growth");
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json() as PlanChangePreview;
    expect(preview).toEqual({
      plan: "growth",
      plan_name: "Growth",
      price: 5900,
      current_plan: "business",
      current_plan_name: "Business",
      proration: -2000,
      currency: "usd",
      next_invoice_at: end.toISOString(),
    });

    expect((await call(token, "POST", "/api/billing/change-plan", { plan: "growth" })).statusCode).toBe(200);
    clockAhead(0);
    // The period ends (the test provider's clock): the renewal is Growth less the credit.
    const daysLeft = Math.ceil((end.getTime() - Date.now()) / DAY) + 1;
    expect((await call(token, "POST", "/api/test-provider/clock/advance", { days: daysLeft })).statusCode).toBe(200);
    const [renewal] = await listed(token);
    expect(renewal).toMatchObject({ status: "paid", amount_due: 3900 });
    const text = await pdfText(
      (
        await t.app.inject({
          method: "GET",
          url: `/api/billing/invoices/${renewal?.id}/pdf`,
          headers: bearer(token),
        })
      ).rawPayload,
    );
    expect(text).toContain("Cove Growth plan, monthly");
    expect(text).toContain("Plan change: unused time on the previous plan");
    expect(text).toContain("-$20.00");
    expect(text).toMatch(/Total\s*\$39\.00/);
  });

  it("an upgrade adds the difference for the rest of the period to the next invoice; nothing is charged now", async () => {
    const { token, user } = await registerOrg(t.app);
    expect((await subscribe(token, "starter")).statusCode).toBe(200);
    const { start, end } = await periodOf(user.organizationId);
    const quarterLeft = new Date(start.getTime() + ((end.getTime() - start.getTime()) * 3) / 4);
    clockAt(quarterLeft);
    const preview = (await call(token, "GET", "/api/billing/change-plan/preview?plan=business")).json();
    expect(preview).toMatchObject({ plan: "business", price: 9900, current_plan: "starter", proration: 1750 });
    expect((await call(token, "POST", "/api/billing/change-plan", { plan: "business" })).statusCode).toBe(200);
    // Still the one paid invoice of the first period.
    expect((await listed(token)).map((i) => [i.status, i.amount_due])).toEqual([["paid", 2900]]);
  });

  it("refuses a preview that the change itself would refuse, saying why", async () => {
    const { token, user } = await registerOrg(t.app);
    const none = await call(token, "GET", "/api/billing/change-plan/preview?plan=growth");
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toMatch(/no subscription yet/);

    await subscribe(token, "growth");
    const same = await call(token, "GET", "/api/billing/change-plan/preview?plan=growth");
    expect(same.statusCode).toBe(409);
    expect(same.json().error).toBe("Your organization is already on the Growth plan.");

    for (let i = 0; i < 3; i++) await addMember(t.database, user.organizationId);
    const seats = await call(token, "GET", "/api/billing/change-plan/preview?plan=starter");
    expect(seats.statusCode).toBe(403);
    expect(seats.json().error).toMatch(/4 members.*Starter plan allows 3/);

    const bad = await call(token, "GET", "/api/billing/change-plan/preview?plan=platinum");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain("Plan must be starter, growth or business");
  });
});
