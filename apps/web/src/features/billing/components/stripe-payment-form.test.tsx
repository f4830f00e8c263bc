import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { findOpenDialog, json, renderApp, signedIn, trialAnswer } from "../../../test/render-app.tsx";

// Stripe.js cannot be reached from here (nor from a browser behind a blocker): its loader rejects.
vi.mock("@stripe/stripe-js/pure", () => ({
  loadStripe: () => Promise.reject(new Error("Failed to load Stripe.js")),
}));

describe("the Stripe card form", () => {
  it("says so when Stripe.js cannot load, instead of spinning", async () => {
    signedIn({
      "GET /api/billing/subscription": () =>
        json(200, {
          plan: "growth",
          plan_name: "Growth",
          status: "trialing",
          subscription: null,
          trial_ends_at: null,
          card: null,
          access: trialAnswer.access,
          provider: "stripe",
        }),
      "GET /api/billing/invoices": () => json(200, { invoices: [], timezone: "UTC" }),
      "GET /api/billing/config": () => json(200, { provider: "stripe", publishableKey: "pk_test_cove" }),
    });
    const { user } = renderApp("/billing");
    await user.click(await screen.findByRole("button", { name: /Choose Starter/ }));
    const dialog = await findOpenDialog("dialog", { name: "Subscribe to Starter" });
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "The payment form could not load: Stripe could not be reached from this browser.",
    );
    expect(within(dialog).queryByText("Loading payment form...")).not.toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Subscribe" })).not.toBeInTheDocument();
  });
});
