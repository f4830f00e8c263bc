import type { Webhook, WebhookDelivery } from "@cove/contract/webhooks.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

const hook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: "0b8f5a8e-7a1d-4f0e-9a43-8b1f8e2c6d11",
  kind: "webhook",
  url: "https://shop.example.com/cove",
  events: ["ticket.created", "comment.added"],
  enabled: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: "2026-11-29T08:00:00.000Z",
  ...overrides,
});

const delivery: WebhookDelivery = {
  id: "5f0c6c58-8a8e-4d43-9f51-2f9c7c1d2e3f",
  event_id: "evt_12",
  event: "ticket.created",
  status: "failed",
  attempts: 9,
  created_at: "2026-11-28T08:00:00.000Z",
  last_attempt_at: "2026-11-29T08:00:00.000Z",
  next_attempt_at: null,
  status_code: 500,
  duration_ms: 120,
  response: "<h1>Internal error</h1>",
  error: null,
};

function signedIn(webhooks: Webhook[], create?: (body: Record<string, unknown>) => Response) {
  storeSession();
  const calls: string[] = [];
  mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/settings/api-keys": () => json(200, { api_keys: [] }),
    "GET /api/webhooks": () => json(200, { webhooks }),
    "POST /api/webhooks": (init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return create?.(body) ?? json(201, { webhook: hook({ url: String(body.url) }), secret: "whsec_shown_once" });
    },
    [`GET /api/webhooks/${hook().id}/deliveries`]: () => json(200, { deliveries: [delivery] }),
    [`POST /api/webhooks/${hook().id}/deliveries/${delivery.id}/redeliver`]: () => {
      calls.push("redeliver");
      return json(202, { delivery: { ...delivery, status: "pending", attempts: 0 } });
    },
    [`POST /api/webhooks/${hook().id}/test`]: () => {
      calls.push("test");
      return json(202, { delivery: { ...delivery, event: "webhook.test", status: "pending" } });
    },
  });
  return calls;
}

describe("Settings > Integrations", () => {
  it("adds a webhook and shows its secret once", async () => {
    signedIn([]);
    const { user } = renderApp("/settings?tab=integrations");
    expect(await screen.findByText("No webhooks yet.")).toBeInTheDocument();
    expect(screen.getByText("Slack is not connected.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Endpoint URL"), "https://shop.example.com/cove");
    await user.click(screen.getByRole("button", { name: "Add webhook" }));
    expect(await screen.findByTestId("webhook-secret")).toHaveTextContent("whsec_shown_once");
  });

  it("says a refused URL beside the field, once", async () => {
    const message = "Cove does not send webhooks to private, local or internal network addresses.";
    signedIn([], () => json(400, { error: message, code: "VALIDATION_ERROR", details: [{ path: "url", message }] }));
    const { user } = renderApp("/settings?tab=integrations");
    const field = await screen.findByLabelText("Endpoint URL");
    await user.type(field, "https://10.0.0.1/");
    await user.click(screen.getByRole("button", { name: "Add webhook" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getAllByText(message)).toHaveLength(1);
  });

  it("shows a turned-off endpoint's reason and its delivery log, as text, with send again and a test event", async () => {
    const calls = signedIn([
      hook({ enabled: false, disabled_reason: "Turned off by Cove" }),
      hook({
        id: "a3b1c2d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        kind: "slack",
        url: "https://hooks.slack.com/services/T/B/c",
        events: ["ticket.created"],
      }),
    ]);
    const { user } = renderApp("/settings?tab=integrations");
    expect(await screen.findByText("Off: Turned off by Cove")).toBeInTheDocument();
    expect(screen.getByText("https://hooks.slack.com/services/T/B/c")).toBeInTheDocument();
    const row = screen.getByText("https://shop.example.com/cove").closest("li") as HTMLElement;
    expect(within(row).getByRole("button", { name: "Send a test event" })).toBeDisabled();
    await user.click(within(row).getByRole("button", { name: "Deliveries" }));
    // The receiver's answer is shown as text, never as markup.
    expect(await within(row).findByText("<h1>Internal error</h1>")).toBeInTheDocument();
    expect(within(row).getByText("Failed (500), 9 attempts")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Send again" })).toBeDisabled();
    expect(calls).toEqual([]);
  });

  it("sends a test event and a delivery again from an endpoint that is on", async () => {
    const calls = signedIn([hook()]);
    const { user } = renderApp("/settings?tab=integrations");
    const row = (await screen.findByText("https://shop.example.com/cove")).closest("li") as HTMLElement;
    await user.click(within(row).getByRole("button", { name: "Send a test event" }));
    expect(await screen.findByText("Test event sent")).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Deliveries" }));
    await user.click(await within(row).findByRole("button", { name: "Send again" }));
    expect(await screen.findByText("Sent again")).toBeInTheDocument();
    expect(calls).toEqual(["test", "redeliver"]);
  });
});
