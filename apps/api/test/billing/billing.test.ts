import type { Invoice, SubscribeAnswer } from "@cove/contract/billing.ts";
import type { TrialStatus } from "@cove/contract/trial.ts";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { LIFECYCLE_CRON, LIFECYCLE_QUEUE } from "../../src/modules/billing/lifecycle.ts";
import { queryRows } from "../../src/platform/db.ts";
import { addMember, client, errorAnswer, registerOrg, testAppForFile } from "../helpers.ts";
import { clockAhead, clockAt, subscription, testCard, waitForSubscription } from "../support/billing.ts";

const t = testAppForFile();
afterEach(() => {
  clockAhead(0);
});

const call = client(() => t.app);

const newTicket = (token: string) =>
  call(token, "POST", "/api/tickets", {
    subject: "Printer on fire",
    description: "It is on fire.",
    requester_name: "Sam",
    requester_email: "sam@example.com",
  });

async function subscribe(token: string, plan: string, number = "4242424242424242") {
  const res = await call(token, "POST", "/api/billing/subscribe", {
    plan,
    paymentMethodId: await testCard(t.app, token, number),
  });
  return res;
}

const trial = async (token: string) => (await call(token, "GET", "/api/trial/status")).json() as TrialStatus;
const runLifecycle = () => t.app.jobs.send(t.app.db, LIFECYCLE_QUEUE, {});

describe("the trial that converts (POST /api/trial/convert)", () => {
  it("converts with the test provider's success card to Starter, stores only the card summary, and records the invoice", async () => {
    const { token } = await registerOrg(t.app);
    const res = await call(token, "POST", "/api/trial/convert", {
      paymentMethodId: await testCard(t.app, token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: "active", message: "Successfully upgraded to paid plan!" });

    expect(await trial(token)).toMatchObject({ isTrial: false, subscription_status: "active", plan: "starter" });
    const s = await subscription(t.app, token);
    expect(s).toMatchObject({
      plan: "starter",
      status: "active",
      card: { brand: "visa", last4: "4242" },
      subscription: { status: "active", cancel_at_period_end: false },
      access: { read_only: false },
    });
    // currentPeriodEnd in Unix seconds, about a month ahead.
    const end = s.subscription?.currentPeriodEnd ?? 0;
    expect(end * 1000 - Date.now()).toBeGreaterThan(27 * 86_400_000);
    expect(end * 1000 - Date.now()).toBeLessThan(32 * 86_400_000);

    const invoices = (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount_due: 2900, amount_paid: 2900, currency: "usd", status: "paid" });

    // Nothing of the card but its summary is anywhere in Cove's tables.
    const [row] = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select to_jsonb(s)::text as all from subscriptions s join users u on u.organization_id = s.organization_id
          where u.email = ${(await call(token, "GET", "/api/auth/me")).json().user.email}`,
    );
    expect(String(row?.all)).not.toContain("4242424242424242");
    expect(String(row?.all)).toContain("N1 7AA");
  });

  it("converts to another plan when one is chosen, and refuses a second conversion", async () => {
    const { token } = await registerOrg(t.app);
    const pm = await testCard(t.app, token);
    expect((await call(token, "POST", "/api/trial/convert", { paymentMethodId: pm, plan: "growth" })).statusCode).toBe(
      200,
    );
    expect((await subscription(t.app, token)).plan).toBe("growth");
    const again = await call(token, "POST", "/api/trial/convert", { paymentMethodId: await testCard(t.app, token) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/not on a trial/);
  });

  it("answers the card provider's decline message and leaves the trial as it was; a good card then works", async () => {
    const { token } = await registerOrg(t.app);
    const declined = await call(token, "POST", "/api/trial/convert", {
      paymentMethodId: await testCard(t.app, token, "4000 0000 0000 0002"),
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: "PAYMENT_FAILED", error: "Your card was declined." });
    expect(await trial(token)).toMatchObject({ isTrial: true, subscription_status: "trialing" });

    const funds = await call(token, "POST", "/api/trial/convert", {
      paymentMethodId: await testCard(t.app, token, "4000000000009995"),
    });
    expect(funds.json().error).toBe("Your card has insufficient funds.");

    const ok = await call(token, "POST", "/api/trial/convert", { paymentMethodId: await testCard(t.app, token) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("a card that needs confirmation answers a clientSecret; the subscription starts once it is confirmed", async () => {
    const { token } = await registerOrg(t.app);
    const res = await subscribe(token, "growth", "4000002500003155");
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as SubscribeAnswer;
    expect(answer.status).toBe("requires_confirmation");
    expect(answer.clientSecret).toMatch(/_secret_/);
    expect((await subscription(t.app, token)).status).toBe("trialing");

    const failed = await call(token, "POST", "/api/test-provider/confirm", {
      client_secret: answer.clientSecret,
      outcome: "fail",
    });
    expect(failed.statusCode).toBe(402);
    expect(failed.json().error).toMatch(/unable to authenticate/);

    const confirmed = await call(token, "POST", "/api/test-provider/confirm", {
      client_secret: answer.clientSecret,
      outcome: "complete",
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // The subscription page looks the pending payment up again.
    expect(await subscription(t.app, token)).toMatchObject({ status: "active", plan: "growth" });
  });

  it("checks the card form's input like a card provider, with its messages", async () => {
    const { token } = await registerOrg(t.app);
    const make = (card: object) =>
      call(token, "POST", "/api/test-provider/payment-methods", {
        number: "4242424242424242",
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 5,
        cvc: "123",
        ...card,
      });
    expect((await make({ number: "4242424242424241" })).json().error).toBe("Your card number is invalid.");
    expect((await make({ number: "4242" })).json().error).toBe("Your card number is incomplete.");
    expect((await make({ exp_year: 2001 })).json().error).toBe("Your card's expiration year is in the past.");
    expect((await make({ cvc: "1" })).json().error).toBe("Your card's security code is incomplete.");
    expect((await make({ number: "4111111111111111" })).json().error).toMatch(/test card such as 4242/);
  });
});

describe("subscribe, plan limits on seats, change of plan, cancel", () => {
  it("refuses a plan with fewer seats than the team holds, naming both", async () => {
    const { token, user } = await registerOrg(t.app);
    for (let i = 0; i < 3; i++) await addMember(t.database, user.organizationId);
    const res = await subscribe(token, "starter");
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "SEAT_LIMIT" });
    expect(res.json().error).toMatch(/4 members.*Starter plan allows 3/);
  });

  it("trial -> active -> cancel at period end -> canceled, with the spec's message", async () => {
    const { token } = await registerOrg(t.app);
    expect((await subscribe(token, "business")).json().message).toBe("Subscription created successfully!");
    const twice = await subscribe(token, "starter");
    expect(twice.statusCode).toBe(409);

    const changed = await call(token, "POST", "/api/billing/change-plan", { plan: "growth" });
    expect(changed.json().message).toBe("Your organization is now on the Growth plan.");
    expect((await subscription(t.app, token)).plan).toBe("growth");

    const cancel = await call(token, "POST", "/api/billing/cancel");
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().message).toBe("Subscription will be cancelled at the end of the current period");
    const s = await subscription(t.app, token);
    expect(s).toMatchObject({ status: "active", subscription: { cancel_at_period_end: true } });

    // Until the period ends it keeps working; then the provider ends it and tells Cove by webhook.
    expect((await newTicket(token)).statusCode).toBe(201);
    clockAhead(32);
    await runLifecycle();
    const ended = await waitForSubscription(t.app, token, (x) => x.status === "canceled");
    expect(ended.subscription).toBeNull();
    expect(ended.access).toMatchObject({ read_only: false, reason: null });
    expect(ended.access.message).toMatch(/full access until/);
    // 30 days of full access, then read-only up to day 90.
    expect((await newTicket(token)).statusCode).toBe(201);
    clockAhead(32 + 31);
    const readOnly = await newTicket(token);
    expect(readOnly.statusCode).toBe(402);
    expect(readOnly.json()).toMatchObject({ code: "READ_ONLY" });
    expect(readOnly.json().error).toMatch(/subscription ended on .* read-only until its data is deleted on/);
    expect((await call(token, "GET", "/api/tickets")).statusCode).toBe(200);
  });

  it("resumes a cancellation before it takes effect", async () => {
    const { token } = await registerOrg(t.app);
    await subscribe(token, "starter");
    await call(token, "POST", "/api/billing/cancel");
    const res = await call(token, "POST", "/api/billing/resume");
    expect(res.json().message).toBe("Your subscription will renew as usual.");
    expect((await subscription(t.app, token)).subscription?.cancel_at_period_end).toBe(false);
  });

  it("cancel without a subscription is refused clearly", async () => {
    const { token } = await registerOrg(t.app);
    const res = await call(token, "POST", "/api/billing/cancel");
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/no subscription yet/);
  });
});

describe("renewals: active -> past due (grace, then read-only) -> paid again, and -> canceled", () => {
  it("a failed renewal gets a 7-day grace period with a message, then the organization is read-only until a card pays", async () => {
    const { token } = await registerOrg(t.app);
    await subscribe(token, "starter");
    // A card that attaches but whose charges are declined takes over, then the period ends.
    const swap = await call(token, "POST", "/api/billing/payment-method", {
      paymentMethodId: await testCard(t.app, token, "4000000000000341"),
    });
    expect(swap.json().message).toBe("Your card was updated.");
    clockAhead(31);
    await runLifecycle();
    const pastDue = await waitForSubscription(t.app, token, (x) => x.status === "past_due");
    expect(pastDue.access.read_only).toBe(false);
    expect(pastDue.access.message).toMatch(/last payment failed.*by /);
    expect((await trial(token)).access.grace_ends_at).not.toBeNull();
    expect((await newTicket(token)).statusCode).toBe(201);
    const invoices = (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];
    expect(invoices.map((i) => i.status).sort()).toEqual(["open", "paid"]);

    clockAhead(31 + 8);
    const refused = await newTicket(token);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatch(/grace period ended/);

    const fixed = await call(token, "POST", "/api/billing/payment-method", {
      paymentMethodId: await testCard(t.app, token, "5555555555554444"),
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().message).toBe("Your card was updated and the overdue payment went through.");
    const paid = await subscription(t.app, token);
    expect(paid).toMatchObject({ status: "active", card: { brand: "mastercard", last4: "4444" } });
    expect((await newTicket(token)).statusCode).toBe(201);
  });

  it("trial -> active -> past due -> canceled at the period's end", async () => {
    const { token } = await registerOrg(t.app);
    await subscribe(token, "growth");
    await call(token, "POST", "/api/billing/payment-method", {
      paymentMethodId: await testCard(t.app, token, "4000000000000341"),
    });
    clockAhead(31);
    await runLifecycle();
    await waitForSubscription(t.app, token, (x) => x.status === "past_due");
    expect((await call(token, "POST", "/api/billing/cancel")).statusCode).toBe(200);
    clockAhead(62);
    await runLifecycle();
    const s = await waitForSubscription(t.app, token, (x) => x.status === "canceled");
    expect(s.access.deletes_at).not.toBeNull();
  });

  it("renews a paid period with a new paid invoice", async () => {
    const { token } = await registerOrg(t.app);
    await subscribe(token, "starter");
    const before = (await subscription(t.app, token)).subscription?.currentPeriodEnd ?? 0;
    clockAhead(31);
    await runLifecycle();
    const after = await waitForSubscription(t.app, token, (x) => (x.subscription?.currentPeriodEnd ?? 0) > before);
    expect(after.status).toBe("active");
    const invoices = (await call(token, "GET", "/api/billing/invoices")).json().invoices as Invoice[];
    expect(invoices.filter((i) => i.status === "paid")).toHaveLength(2);
  });
});

describe("trial -> expired -> read-only -> subscribed", () => {
  it("refuses writes with the reason once the trial ends unpaid, keeps reads and export, and lifts it on subscribing", async () => {
    const { token, user } = await registerOrg(t.app);
    expect((await newTicket(token)).statusCode).toBe(201);
    clockAhead(15);
    const status = await trial(token);
    expect(status).toMatchObject({
      isTrial: true,
      isExpired: true,
      access: { read_only: true, reason: "trial_expired" },
    });

    const refused = await newTicket(token);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual(
      errorAnswer(
        "Your free trial has ended, so your organization is read-only: you can still sign in, read and export your data. An admin can subscribe on the Billing page to make changes again.",
        "READ_ONLY",
      ),
    );
    expect((await call(token, "GET", "/api/tickets")).statusCode).toBe(200);
    expect((await call(token, "GET", "/api/tickets/stats/overview")).statusCode).toBe(200);
    expect((await call(token, "POST", "/api/organization/export")).statusCode).toBe(202);
    // An agent is refused the same way.
    const agent = await addMember(t.database, user.organizationId);
    expect((await newTicket(agent.token)).statusCode).toBe(402);

    const converted = await call(token, "POST", "/api/trial/convert", {
      paymentMethodId: await testCard(t.app, token),
    });
    expect(converted.statusCode, converted.body).toBe(200);
    expect((await trial(token)).access.read_only).toBe(false);
    expect((await newTicket(token)).statusCode).toBe(201);
  });

  it("the test clock moves one organization's trial to its end", async () => {
    const { token } = await registerOrg(t.app);
    const res = await call(token, "POST", "/api/test-provider/clock/advance", { days: 15 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await trial(token)).isExpired).toBe(true);
    expect((await newTicket(token)).statusCode).toBe(402);
  });
});

describe("tickets per month by plan", () => {
  it("the 1,001st ticket of a Starter month answers 403 naming the plan and the limit", async () => {
    const { token, user } = await registerOrg(t.app);
    await t.database.db
      .update(organizations)
      .set({ plan: "starter", subscriptionStatus: "active", ticketSeq: 1000 })
      .where(eq(organizations.id, user.organizationId));
    await t.database.db.execute(
      sql`insert into tickets (organization_id, ticket_number, subject, description, requester_name, requester_email)
          select ${user.organizationId}, n, 'Ticket ' || n, 'Body', 'Sam', 'sam@example.com'
          from generate_series(1, 999) n`,
    );
    expect((await newTicket(token)).statusCode).toBe(201);
    const over = await newTicket(token);
    expect(over.statusCode).toBe(403);
    expect(over.json().code).toBe("TICKET_LIMIT");
    expect(over.json().error).toMatch(/^The Starter plan allows 1,000 tickets per month, and this month's are used\./);
    // Tickets created in an earlier month do not count.
    await t.database.db.execute(
      sql`update tickets set created_at = created_at - interval '40 days' where organization_id = ${user.organizationId}`,
    );
    expect((await newTicket(token)).statusCode).toBe(201);
  });

  it("a trial has Growth's limit and says so; Business has none", async () => {
    const { token, user } = await registerOrg(t.app);
    await t.database.db.execute(
      sql`insert into tickets (organization_id, ticket_number, subject, description, requester_name, requester_email)
          select ${user.organizationId}, n, 'Ticket ' || n, 'Body', 'Sam', 'sam@example.com'
          from generate_series(1, 5000) n`,
    );
    await t.database.db.update(organizations).set({ ticketSeq: 5000 }).where(eq(organizations.id, user.organizationId));
    const over = await newTicket(token);
    expect(over.statusCode).toBe(403);
    expect(over.json().error).toMatch(/^Your trial has the Growth plan's limit of 5,000 tickets per month/);
    await t.database.db
      .update(organizations)
      .set({ plan: "business", subscriptionStatus: "active" })
      .where(eq(organizations.id, user.organizationId));
    expect((await newTicket(token)).statusCode).toBe(201);
  });
});

describe("the canceled-data lifecycle (scheduled job, controlled clock)", () => {
  it("is scheduled with pg-boss and deletes an organization 90 days after its subscription ended, not before", async () => {
    const rows = await t.database.executeSql(`SELECT name, cron FROM ${t.jobsSchema}.schedule WHERE name = $1`, [
      LIFECYCLE_QUEUE.name,
    ]);
    expect(rows.rows).toEqual([{ name: LIFECYCLE_QUEUE.name, cron: LIFECYCLE_CRON }]);

    const doomed = await registerOrg(t.app);
    const kept = await registerOrg(t.app);
    for (const org of [doomed, kept]) {
      await subscribe(org.token, "starter");
      await call(org.token, "POST", "/api/billing/cancel");
    }
    clockAhead(32);
    await runLifecycle();
    const ended = await waitForSubscription(t.app, doomed.token, (x) => x.status === "canceled");
    await waitForSubscription(t.app, kept.token, (x) => x.status === "canceled");
    // kept resubscribes within the 90 days; doomed does not.
    expect((await subscribe(kept.token, "starter")).statusCode).toBe(200);
    const deletesAt = Date.parse(ended.access.deletes_at ?? "");
    expect(deletesAt - Date.parse(ended.access.read_only_from ?? "")).toBe(60 * 86_400_000);

    clockAt(new Date(deletesAt - 3_600_000));
    await runLifecycle();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await call(doomed.token, "GET", "/api/tickets")).statusCode).toBe(200);

    clockAt(new Date(deletesAt + 60_000));
    await runLifecycle();
    const until = Date.now() + 15_000;
    let gone = false;
    while (!gone && Date.now() < until) {
      const [row] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from organizations where id = ${doomed.user.organizationId}`,
      );
      gone = row?.n === 0;
      if (!gone) await new Promise((r) => setTimeout(r, 200));
    }
    expect(gone).toBe(true);
    expect((await call(doomed.token, "GET", "/api/tickets")).statusCode).toBe(401);
    expect((await call(kept.token, "GET", "/api/tickets")).statusCode).toBe(200);
  });
});

describe("roles and tenancy", () => {
  it("agents get 403 with a clear message on billing, plan, cancel and card", async () => {
    const { user } = await registerOrg(t.app);
    const agent = await addMember(t.database, user.organizationId);
    for (const [method, url, body] of [
      ["GET", "/api/billing/subscription"],
      ["GET", "/api/billing/invoices"],
      ["GET", "/api/billing/config"],
      ["POST", "/api/billing/subscribe", { plan: "starter", paymentMethodId: "pm_x" }],
      ["POST", "/api/trial/convert", { paymentMethodId: "pm_x" }],
      ["POST", "/api/billing/cancel"],
      ["POST", "/api/billing/change-plan", { plan: "growth" }],
      ["POST", "/api/billing/payment-method", { paymentMethodId: "pm_x" }],
      [
        "POST",
        "/api/test-provider/payment-methods",
        { number: "4242424242424242", exp_month: 1, exp_year: 2099, cvc: "1" },
      ],
    ] as const) {
      const res = await call(agent.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("Only an administrator can do this.");
    }
    // The trial status is for everyone (the banner).
    expect((await call(agent.token, "GET", "/api/trial/status")).statusCode).toBe(200);
  });

  it("each organization sees only its own subscription and invoices", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    await subscribe(a.token, "business");
    expect((await subscription(t.app, b.token)).status).toBe("trialing");
    expect((await call(b.token, "GET", "/api/billing/invoices")).json().invoices).toEqual([]);
    // A payment method made for a's admin cannot be used by b.
    const pm = await testCard(t.app, a.token);
    await call(a.token, "POST", "/api/billing/payment-method", { paymentMethodId: pm });
    const stolen = await call(b.token, "POST", "/api/trial/convert", { paymentMethodId: pm });
    expect(stolen.statusCode).toBe(402);
    expect((await subscription(t.app, b.token)).status).toBe("trialing");
  });
});
