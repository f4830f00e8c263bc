import type { AiSettings } from "@cove/contract/ai.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { widgetSnippet } from "./widget-snippet-card.tsx";

const settings: AiSettings = {
  enabled: true,
  handoff_threshold: 0.5,
  greeting: "Hello!",
  tone: "friendly",
  learn_automatically: false,
  threshold_automatic: false,
  updated_at: null,
};

describe("live chat on the AI Assistant page", () => {
  it("shows the assistant's share of chats and the widget snippet with the organization's colour", async () => {
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/ai/settings": () => json(200, { settings }),
      "GET /api/chat/stats": () =>
        json(200, {
          active_chats: 1,
          closed_today: 0,
          avg_response_seconds: null,
          total_sessions: 9,
          resolved_by_ai: 4,
          handed_off: 5,
        }),
      [`GET /api/public/${testUser.organizationSlug}/chat/widget`]: () =>
        json(200, { name: "Analytical Engines", brand_color: "#0f766e", logo_url: null }),
    });
    renderApp("/ai-assistant");

    const share = await screen.findByRole("region", { name: "Live chats resolved by the assistant" });
    expect(await within(share).findByText("44%")).toBeInTheDocument();
    expect(within(share).getByText("Handed off to a person").nextElementSibling).toHaveTextContent("5");
    const card = screen.getByRole("region", { name: "Chat widget for your website" });
    expect(
      await within(card).findByText(
        `<script src="${window.location.origin}/widget.js" data-org="${testUser.organizationSlug}" data-color="#0f766e" async></script>`,
      ),
    ).toBeInTheDocument();
  });

  it("writes the snippet without a colour until it is known", () => {
    expect(widgetSnippet("https://cove.example", "acme", null)).toBe(
      '<script src="https://cove.example/widget.js" data-org="acme" async></script>',
    );
  });
});
