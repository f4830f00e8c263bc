import type { SubscriptionAnswer } from "@cove/contract/billing.ts";
import type { BillingDetailsAnswer, PlanChangePreview } from "@cove/contract/billing-account.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { calls, findOpenDialog, json, renderApp, signedIn, testUser, trialAnswer } from "../../../test/render-app.tsx";

const access = trialAnswer.access;
const onTrial: SubscriptionAnswer = {
  plan: "growth",
  plan_name: "Growth",
  status: "trialing",
  subscription: null,
  trial_ends_at: "2030-01-15T00:00:00.000Z",
  card: null,
  access,
  provider: "test",
  timezone: "UTC",
};
const active: SubscriptionAnswer = {
  ...onTrial,
  plan: "starter",
  plan_name: "Starter",
  status: "active",
  subscription: { status: "active", currentPeriodEnd: 1_900_000_000, cancel_at_period_end: false, canceled_at: null },
  card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
};

const savedDetails: BillingDetailsAnswer = {
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
};

/** Stripe's script, as any code that loads Stripe.js adds it to the page. */
const stripeScripts = () => document.querySelectorAll('script[src*="js.stripe.com"]');

afterEach(() => {
  for (const script of stripeScripts()) script.remove();
});

function api(overrides: Parameters<typeof signedIn>[0] = {}) {
  return signedIn({
    "GET /api/billing/subscription": () => json(200, onTrial),
    "GET /api/billing/invoices": () => json(200, { invoices: [], timezone: "UTC" }),
    "GET /api/billing/config": () => json(200, { provider: "test", publishableKey: null }),
    "GET /api/billing/details": () => json(200, savedDetails),
    ...overrides,
  });
}

describe("/billing", () => {
  it("shows the yellow Backend Connection Issue banner with the spec's text and the plans when loading fails", async () => {
    api({ "GET /api/billing/subscription": () => json(500, { error: "boom", code: "INTERNAL_ERROR" }) });
    renderApp("/billing");
    const banner = await screen.findByRole("alert");
    expect(banner).toHaveTextContent(
      "Backend Connection Issue: Subscription management is currently experiencing connection issues. The payment interface is fully functional for testing purposes.",
    );
    expect(screen.getByRole("list", { name: "Plans" })).toBeInTheDocument();
  });

  it("offers three plans at /month; a card opens Subscribe to {plan} with Cancel and Subscribe", async () => {
    api();
    const { user } = renderApp("/billing");
    const plans = await screen.findByRole("list", { name: "Plans" });
    expect(plans.querySelectorAll(":scope > li")).toHaveLength(3);
    expect(plans).toHaveTextContent("$29/month");
    expect(plans).toHaveTextContent("$59/month");
    expect(plans).toHaveTextContent("$99/month");
    await user.click(within(plans).getByRole("button", { name: /Choose Business/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Business" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    expect(await within(dialog).findByRole("button", { name: "Subscribe" })).toBeEnabled();
  });

  it("shows Loading payment form... until the provider is ready", async () => {
    api({ "GET /api/billing/config": () => new Promise<Response>(() => {}) });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Starter" });
    expect(within(dialog).getByText("Loading payment form...")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Subscribe" })).not.toBeInTheDocument();
  });

  it("subscribes with the card form: disabled while processing, then Subscription created successfully!", async () => {
    let release: () => void = () => {};
    const fetchMock = api({
      "POST /api/test-provider/payment-methods": () =>
        json(200, { id: "pm_test_1", card: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 } }),
      "POST /api/billing/subscribe": () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(json(200, { status: "active", message: "Subscription created successfully!" }));
        }),
    });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Growth/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Growth" });
    await user.type(await within(dialog).findByLabelText("Card number"), "4242424242424242");
    await user.type(within(dialog).getByLabelText("Expiry (MM / YY)"), "12 / 34");
    await user.type(within(dialog).getByLabelText("CVC"), "123");
    await user.click(within(dialog).getByRole("button", { name: "Subscribe" }));
    expect(await within(dialog).findByRole("button", { name: /Processing/ })).toBeDisabled();
    release();
    expect(await screen.findByText("Subscription created successfully!")).toBeInTheDocument();
    const subscribe = fetchMock.mock.calls.find(([input]) => String(input) === "/api/billing/subscribe");
    expect(JSON.parse(String(subscribe?.[1]?.body))).toEqual({ plan: "growth", paymentMethodId: "pm_test_1" });
  });

  it("shows the decline inline, with the card provider's words", async () => {
    api({
      "POST /api/test-provider/payment-methods": () =>
        json(200, { id: "pm_test_2", card: { brand: "visa", last4: "0002", expMonth: 1, expYear: 2034 } }),
      "POST /api/billing/subscribe": () => json(402, { error: "Your card was declined.", code: "PAYMENT_FAILED" }),
    });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Starter" });
    await user.type(await within(dialog).findByLabelText("Card number"), "4000000000000002");
    await user.type(within(dialog).getByLabelText("Expiry (MM / YY)"), "12/34");
    await user.type(within(dialog).getByLabelText("CVC"), "123");
    await user.click(within(dialog).getByRole("button", { name: "Subscribe" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Your card was declined.");
  });

  it("with a subscription: plan, green Active, next billing date; cancel asks the spec's question and says so", async () => {
    const fetchMock = api({
      "GET /api/billing/subscription": () => json(200, active),
      "POST /api/billing/cancel": () =>
        json(200, { message: "Subscription will be cancelled at the end of the current period" }),
    });
    const { user } = renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    expect(current).toHaveTextContent("Starter");
    expect(within(current).getByText("Active")).toHaveClass("bg-emerald-100");
    expect(current).toHaveTextContent("Next billing date");
    expect(current).toHaveTextContent("Visa ending in 4242");
    await user.click(within(current).getByRole("button", { name: "Cancel Subscription" }));
    const confirm = await findOpenDialog("alertdialog", {
      name: "Are you sure you want to cancel your subscription?",
    });
    await user.click(within(confirm).getByRole("button", { name: "Cancel Subscription" }));
    expect(
      await screen.findByText("Subscription will be cancelled at the end of the current period"),
    ).toBeInTheDocument();
    expect(calls(fetchMock)).toContain("POST /api/billing/cancel");
    // Then it reloads.
    expect(calls(fetchMock).filter((c) => c === "GET /api/billing/subscription").length).toBeGreaterThan(1);
  });

  it("shows a past-due status in yellow", async () => {
    api({
      "GET /api/billing/subscription": () =>
        json(200, { ...active, status: "past_due", subscription: { ...active.subscription, status: "past_due" } }),
    });
    renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    expect(within(current).getByText("Past due")).toHaveClass("bg-yellow-100");
  });
});

describe("trial banner", () => {
  it("offers Upgrade now to an admin and 'ask an admin' to an agent", async () => {
    api();
    renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    expect(within(banner).getByRole("button", { name: "Upgrade now" })).toBeInTheDocument();
  });

  it("tells an agent to ask an admin, with no upgrade button", async () => {
    const agent = { ...testUser, role: "agent" as const };
    signedIn({}, agent);
    renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    expect(banner).toHaveTextContent("Ask an admin to upgrade your plan.");
    expect(within(banner).queryByRole("button", { name: "Upgrade now" })).not.toBeInTheDocument();
  });
});

describe("Stripe.js under the test provider", () => {
  it("is never requested: not by the Billing page, nor by its card form, nor by the trial's upgrade dialog", async () => {
    api();
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Starter" });
    expect(await within(dialog).findByLabelText("Card number")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await user.click(screen.getByRole("link", { name: "Dashboard" }));
    const banner = await screen.findByRole("region", { name: "Trial status" });
    await user.click(within(banner).getByRole("button", { name: "Upgrade now" }));
    const upgrade = await findOpenDialog("dialog", { name: "Upgrade to a paid plan" });
    expect(await within(upgrade).findByLabelText("Card number")).toBeInTheDocument();
    expect(stripeScripts()).toHaveLength(0);
  });
});

describe("the trial on the Billing page", () => {
  it("says when the trial ends", async () => {
    api();
    renderApp("/billing");
    expect(await screen.findByText(/Your free trial ends on January 15, 2030 \(in \d+ days\)\./)).toBeInTheDocument();
  });

  it("says it in the organization's time zone, whatever the browser's", async () => {
    // Midnight UTC on January 15 is still January 14 in Los Angeles.
    api({ "GET /api/billing/subscription": () => json(200, { ...onTrial, timezone: "America/Los_Angeles" }) });
    renderApp("/billing");
    expect(await screen.findByText(/Your free trial ends on January 14, 2030 \(in \d+ days\)\./)).toBeInTheDocument();
  });

  it("a failed conversion says so once, in the form", async () => {
    const refusal = "Your organization is not on a trial: manage its plan on the Billing page.";
    api({
      "POST /api/test-provider/payment-methods": () =>
        json(200, { id: "pm_test_9", card: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 } }),
      "POST /api/trial/convert": () => json(409, { error: refusal, code: "CONFLICT" }),
    });
    const { user } = renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    await user.click(within(banner).getByRole("button", { name: "Upgrade now" }));
    const dialog = await findOpenDialog("dialog", { name: "Upgrade to a paid plan" });
    await user.type(await within(dialog).findByLabelText("Card number"), "4242424242424242");
    await user.type(within(dialog).getByLabelText("Expiry (MM / YY)"), "12 / 34");
    await user.type(within(dialog).getByLabelText("CVC"), "123");
    await user.click(within(dialog).getByRole("button", { name: "Upgrade now" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(refusal);
    // Give a toast the time to appear, were one raised: the message is on screen once.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText(refusal)).toHaveLength(1);
  });

  it("the banner's Upgrade now is the app's primary button", async () => {
    api();
    renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    const upgrade = within(banner).getByRole("button", { name: "Upgrade now" });
    expect(upgrade).toHaveClass("bg-indigo-600");
    expect(upgrade.className).not.toMatch(/bg-blue-/);
  });
});

describe("changing plan", () => {
  const preview = (overrides: Partial<PlanChangePreview>): PlanChangePreview => ({
    plan: "business",
    plan_name: "Business",
    price: 9900,
    current_plan: "starter",
    current_plan_name: "Starter",
    proration: 1750,
    currency: "usd",
    next_invoice_at: "2030-03-17T12:00:00.000Z",
    ...overrides,
  });

  it("asks for confirmation, saying what an upgrade costs and when; confirming changes the plan", async () => {
    const fetchMock = api({
      "GET /api/billing/subscription": () => json(200, active),
      "GET /api/billing/change-plan/preview": () => json(200, preview({})),
      "POST /api/billing/change-plan": () => json(200, { message: "Your organization is now on the Business plan." }),
    });
    const { user } = renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    await user.selectOptions(within(current).getByLabelText("Change plan"), "business");
    await user.click(within(current).getByRole("button", { name: "Change plan" }));
    const confirm = await findOpenDialog("alertdialog", { name: "Change to the Business plan?" });
    expect(confirm).toHaveTextContent(
      "Nothing is charged today. For the rest of the current period you pay the difference between Starter and Business: about $17.50, added to your next invoice, on March 17, 2030. From then on, Business is $99/month.",
    );
    expect(calls(fetchMock)).toContain("GET /api/billing/change-plan/preview?plan=business");
    expect(calls(fetchMock)).not.toContain("POST /api/billing/change-plan");

    await user.click(within(confirm).getByRole("button", { name: "Change plan" }));
    expect(await screen.findByText("Your organization is now on the Business plan.")).toBeInTheDocument();
    const change = fetchMock.mock.calls.find(([input]) => String(input) === "/api/billing/change-plan");
    expect(JSON.parse(String(change?.[1]?.body))).toEqual({ plan: "business" });
  });

  it("a downgrade says the unused time is credited to the next invoice; Cancel changes nothing", async () => {
    const fetchMock = api({
      "GET /api/billing/subscription": () => json(200, { ...active, plan: "business", plan_name: "Business" }),
      "GET /api/billing/change-plan/preview": () =>
        json(
          200,
          preview({
            plan: "starter",
            plan_name: "Starter",
            price: 2900,
            current_plan: "business",
            current_plan_name: "Business",
            proration: -3500,
          }),
        ),
    });
    const { user } = renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    await user.selectOptions(within(current).getByLabelText("Change plan"), "starter");
    await user.click(within(current).getByRole("button", { name: "Change plan" }));
    const confirm = await findOpenDialog("alertdialog", { name: "Change to the Starter plan?" });
    expect(confirm).toHaveTextContent(
      "Nothing is charged today. The unused part of your Business plan for the rest of the current period, about $35.00, is credited to your next invoice, on March 17, 2030. Any credit the invoice does not use goes to the one after it. From then on, Starter is $29/month.",
    );
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(calls(fetchMock)).not.toContain("POST /api/billing/change-plan");
  });

  it("a refused change names the spec's failure, with the server's reason beneath it", async () => {
    const reason =
      "Your team has 5 members (active and invited), and the Starter plan allows 3. Choose a larger plan, or deactivate members or revoke invitations first.";
    api({
      "GET /api/billing/subscription": () => json(200, { ...active, plan: "growth", plan_name: "Growth" }),
      "GET /api/billing/change-plan/preview": () => json(403, { error: reason, code: "SEAT_LIMIT" }),
    });
    const { user } = renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    await user.selectOptions(within(current).getByLabelText("Change plan"), "starter");
    await user.click(within(current).getByRole("button", { name: "Change plan" }));
    expect(await screen.findByText("Failed to change plan")).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });
});

describe("cancelling fails", () => {
  it("shows the spec's Failed to cancel subscription, and the server's text as its detail", async () => {
    const reason =
      "The payment provider could not complete the request (api_connection_error). Nothing was charged; please try again in a moment.";
    api({
      "GET /api/billing/subscription": () => json(200, active),
      "POST /api/billing/cancel": () => json(502, { error: reason, code: "PAYMENT_PROVIDER_ERROR" }),
    });
    const { user } = renderApp("/billing");
    const current = await screen.findByRole("region", { name: "Current plan" });
    await user.click(within(current).getByRole("button", { name: "Cancel Subscription" }));
    const confirm = await findOpenDialog("alertdialog", {
      name: "Are you sure you want to cancel your subscription?",
    });
    await user.click(within(confirm).getByRole("button", { name: "Cancel Subscription" }));
    expect(await screen.findByText("Failed to cancel subscription")).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
  });
});

describe("invoices and billing details", () => {
  const invoice = {
    id: "7d0c6a1e-2f4b-4c8d-9e1f-0a1b2c3d4e5f",
    number: "TEST-ABC123-0001",
    amount_due: 2900,
    amount_paid: 2900,
    currency: "usd",
    status: "paid",
    created_at: "2030-01-15T10:00:00.000Z",
    period_start: "2030-01-15T10:00:00.000Z",
    period_end: "2030-02-15T10:00:00.000Z",
    url: null,
  };

  it("dates invoices by the organization's time zone, as their PDFs do", async () => {
    // 23:30 UTC on January 15 is already January 16 in Auckland, whatever the browser's zone.
    const late = { ...invoice, created_at: "2030-01-15T23:30:00.000Z", period_start: "2030-01-15T23:30:00.000Z" };
    api({
      "GET /api/billing/subscription": () => json(200, active),
      "GET /api/billing/invoices": () => json(200, { invoices: [late], timezone: "Pacific/Auckland" }),
    });
    renderApp("/billing");
    const table = await screen.findByRole("region", { name: "Invoices" });
    const row = within(table).getAllByRole("row")[1];
    expect(row).toHaveTextContent("January 16, 2030");
    expect(row).toHaveTextContent("January 16, 2030 – February 15, 2030");
  });

  it("downloads an invoice's PDF with the session's token", async () => {
    const created = vi.fn(() => "blob:invoice");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const fetchMock = api({
      "GET /api/billing/subscription": () => json(200, active),
      "GET /api/billing/invoices": () => json(200, { invoices: [invoice], timezone: "UTC" }),
      [`GET /api/billing/invoices/${invoice.id}/pdf`]: () =>
        new Response(new Uint8Array([37, 80, 68, 70]), {
          status: 200,
          headers: {
            "Content-Type": "application/pdf",
            "Content-Disposition": 'attachment; filename="invoice-TEST-ABC123-0001.pdf"',
          },
        }),
    });
    const { user } = renderApp("/billing");
    const table = await screen.findByRole("region", { name: "Invoices" });
    await user.click(within(table).getByRole("button", { name: "Download invoice TEST-ABC123-0001 as PDF" }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const pdfCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith("/pdf"));
    expect(new Headers(pdfCall?.[1]?.headers).get("Authorization")).toBe("Bearer stored-token");
    expect(created).toHaveBeenCalled();
    clicked.mockRestore();
  });

  it("shows who invoices are addressed to, and saves the admin's changes", async () => {
    const fetchMock = api({
      "PUT /api/billing/details": (init) =>
        json(200, { saved: true, details: { ...savedDetails.details, ...JSON.parse(String(init?.body)) } }),
    });
    const { user } = renderApp("/billing");
    const section = await screen.findByRole("region", { name: "Billing details" });
    expect(section).toHaveTextContent("Until you save them, invoices show your organization's name");
    expect(within(section).getByLabelText("Billing name")).toHaveValue("Analytical Engines");
    expect(within(section).getByLabelText("Postal code")).toHaveValue("N1 7AA");
    await user.clear(within(section).getByLabelText("Billing name"));
    await user.type(within(section).getByLabelText("Billing name"), "Analytical Engines Ltd");
    await user.type(within(section).getByLabelText("Tax ID"), "GB123456789");
    await user.click(within(section).getByRole("button", { name: "Save billing details" }));
    expect(await screen.findByText("Billing details saved.")).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      name: "Analytical Engines Ltd",
      tax_id: "GB123456789",
      city: "London",
      country: "GB",
    });
    expect(section).toHaveTextContent("Printed on every invoice.");
  });

  it("checks the billing details with the contract's rules before sending, and shows the server's beside their fields", async () => {
    const message = "Tax ID contains an invalid character";
    const fetchMock = api({
      "PUT /api/billing/details": () =>
        json(400, { error: message, code: "VALIDATION_ERROR", details: [{ path: "tax_id", message }] }),
    });
    const { user } = renderApp("/billing");
    const section = await screen.findByRole("region", { name: "Billing details" });
    const country = within(section).getByLabelText(/Country code/);
    await user.clear(country);
    await user.type(country, "G");
    await user.click(within(section).getByRole("button", { name: "Save billing details" }));
    await waitFor(() =>
      expect(country).toHaveAccessibleDescription("Country must be a two-letter country code, such as US or GB"),
    );
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);

    await user.type(country, "B");
    await user.type(within(section).getByLabelText(/Tax ID/), "GB1");
    await user.click(within(section).getByRole("button", { name: "Save billing details" }));
    await waitFor(() => expect(within(section).getByLabelText(/Tax ID/)).toHaveAccessibleDescription(message));
    expect(within(section).queryByRole("alert")).not.toBeInTheDocument();
  });
});
