import type { SubscriptionAnswer } from "@cove/contract/billing.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp, storeSession, testUser, trialAnswer } from "../../../test/render-app.tsx";

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
};
const active: SubscriptionAnswer = {
  ...onTrial,
  plan: "starter",
  plan_name: "Starter",
  status: "active",
  subscription: { status: "active", currentPeriodEnd: 1_900_000_000, cancel_at_period_end: false, canceled_at: null },
  card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
};

function api(overrides: Record<string, Parameters<typeof mockApi>[0][string]> = {}) {
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/trial/status": () => json(200, trialAnswer),
    "GET /api/billing/subscription": () => json(200, onTrial),
    "GET /api/billing/invoices": () => json(200, { invoices: [] }),
    "GET /api/billing/config": () => json(200, { provider: "test", publishableKey: null }),
    ...overrides,
  });
}

describe("/billing", () => {
  it("shows the yellow Backend Connection Issue banner with the spec's text and the plans when loading fails", async () => {
    storeSession();
    api({ "GET /api/billing/subscription": () => json(500, { error: "boom", code: "INTERNAL_ERROR" }) });
    renderApp("/billing");
    const banner = await screen.findByRole("alert");
    expect(banner).toHaveTextContent(
      "Backend Connection Issue: Subscription management is currently experiencing connection issues. The payment interface is fully functional for testing purposes.",
    );
    expect(screen.getByRole("list", { name: "Plans" })).toBeInTheDocument();
  });

  it("offers three plans at /month; a card opens Subscribe to {plan} with Cancel and Subscribe", async () => {
    storeSession();
    api();
    const { user } = renderApp("/billing");
    const plans = await screen.findByRole("list", { name: "Plans" });
    expect(plans.querySelectorAll(":scope > li")).toHaveLength(3);
    expect(plans).toHaveTextContent("$29/month");
    expect(plans).toHaveTextContent("$59/month");
    expect(plans).toHaveTextContent("$99/month");
    await user.click(within(plans).getByRole("button", { name: /Choose Business/ }));
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to Business" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    expect(await within(dialog).findByRole("button", { name: "Subscribe" })).toBeEnabled();
  });

  it("shows Loading payment form... until the provider is ready", async () => {
    storeSession();
    api({ "GET /api/billing/config": () => new Promise<Response>(() => {}) });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to Starter" });
    expect(within(dialog).getByText("Loading payment form...")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Subscribe" })).not.toBeInTheDocument();
  });

  it("subscribes with the card form: disabled while processing, then Subscription created successfully!", async () => {
    storeSession();
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
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to Growth" });
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
    storeSession();
    api({
      "POST /api/test-provider/payment-methods": () =>
        json(200, { id: "pm_test_2", card: { brand: "visa", last4: "0002", expMonth: 1, expYear: 2034 } }),
      "POST /api/billing/subscribe": () => json(402, { error: "Your card was declined.", code: "PAYMENT_FAILED" }),
    });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to Starter" });
    await user.type(await within(dialog).findByLabelText("Card number"), "4000000000000002");
    await user.type(within(dialog).getByLabelText("Expiry (MM / YY)"), "12/34");
    await user.type(within(dialog).getByLabelText("CVC"), "123");
    await user.click(within(dialog).getByRole("button", { name: "Subscribe" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Your card was declined.");
  });

  it("with a subscription: plan, green Active, next billing date; cancel asks the spec's question and says so", async () => {
    storeSession();
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
    const confirm = await screen.findByRole("alertdialog", {
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
    storeSession();
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
    storeSession();
    api();
    renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    expect(within(banner).getByRole("button", { name: "Upgrade now" })).toBeInTheDocument();
  });

  it("tells an agent to ask an admin, with no upgrade button", async () => {
    const agent = { ...testUser, role: "agent" as const };
    storeSession(agent);
    mockApi({
      "GET /api/auth/me": () => json(200, { user: agent }),
      "GET /api/trial/status": () => json(200, trialAnswer),
    });
    renderApp("/dashboard");
    const banner = await screen.findByRole("region", { name: "Trial status" });
    expect(banner).toHaveTextContent("Ask an admin to upgrade your plan.");
    expect(within(banner).queryByRole("button", { name: "Upgrade now" })).not.toBeInTheDocument();
  });
});
