import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, renderApp, signedIn } from "../../../test/render-app.tsx";

describe("the dashboard's satisfaction card", () => {
  it("shows the last 30 days' score, by people and AI, and per agent", async () => {
    signedIn({
      "GET /api/csat/stats": () =>
        json(200, {
          period_days: 30,
          surveys_sent: 6,
          overall: { good: 3, bad: 1, score: 75 },
          people: { good: 3, bad: 1, score: 75 },
          ai: { good: 0, bad: 0, score: null, available: true },
          agents: [
            {
              agent_id: "0e0e0e0e-0000-4000-8000-000000000001",
              first_name: "Priya",
              last_name: "Nair",
              good: 3,
              bad: 1,
              score: 75,
            },
          ],
        }),
    });
    renderApp("/dashboard");
    const card = await screen.findByRole("region", { name: "Customer Satisfaction" });
    expect(await within(card).findByTestId("csat-score")).toHaveTextContent("75%");
    expect(within(card).getByText("Last 30 days · 4 of 6 surveys answered")).toBeInTheDocument();
    expect(within(card).getByText("0 good · 0 bad")).toBeInTheDocument();
    const row = within(card).getByRole("row", { name: /Priya Nair/ });
    expect(row).toHaveTextContent("Priya Nair3175%");
  });
});

describe("the AI's half of satisfaction", () => {
  it("shows how visitors rated the live chats the assistant resolved", async () => {
    signedIn({
      "GET /api/csat/stats": () =>
        json(200, {
          period_days: 30,
          surveys_sent: 10,
          overall: { good: 6, bad: 2, score: 75 },
          people: { good: 3, bad: 1, score: 75 },
          ai: { good: 3, bad: 1, score: 75, available: true },
          agents: [],
        }),
    });
    renderApp("/dashboard");
    const card = await screen.findByRole("region", { name: "Customer Satisfaction" });
    expect(await within(card).findByText("Resolved by AI")).toBeInTheDocument();
    expect(within(card).queryByText("Not yet")).not.toBeInTheDocument();
    expect(within(card).getByText("Last 30 days · 8 of 10 surveys answered")).toBeInTheDocument();
  });
});
