import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { markNewcomer } from "../../../lib/first-visit.ts";
import { json, renderApp, signedIn, testUser } from "../../../test/render-app.tsx";
import { listAnswer, ticketSummary } from "../../tickets/test/ticket-fixtures.ts";
import { axisTop, formatDay } from "../components/trend-card.tsx";
import { greeting } from "./dashboard-route.tsx";

const stats = {
  total_tickets: 1234,
  open_tickets: 56,
  tickets_today: 7,
  urgent_tickets: 3,
  unassigned_tickets: 12,
  high_priority_tickets: 9,
  tickets_this_week: 40,
  avg_resolution_hours: 5.6,
};

function dashboardApi(handlers: Parameters<typeof signedIn>[0] = {}) {
  return signedIn({
    "GET /api/tickets/stats/overview": () => json(200, stats),
    "GET /api/organizations/stats": () =>
      json(200, {
        basicStats: { active_users: 4, total_users: 5 },
        ticketTrends: [
          { date: "2026-03-01", tickets_created: 3 },
          { date: "2026-03-02", tickets_created: 5 },
        ],
      }),
    ...handlers,
  });
}

function card(title: string): HTMLElement {
  const list = screen.getByRole("list", { name: "Ticket statistics" });
  const item = within(list)
    .getAllByRole("listitem")
    .find((li) => li.textContent?.startsWith(title));
  if (!item) throw new Error(`no card ${title}`);
  return item;
}

describe("dashboard", () => {
  it("shows the seven cards with their figures and links, and keeps the trial banner", async () => {
    const recent = Array.from({ length: 10 }, (_, i) =>
      ticketSummary({ ticket_number: 200 - i, subject: `Issue ${i}` }),
    );
    const fetchMock = dashboardApi({ "GET /api/tickets": () => json(200, listAnswer(recent, { total: 1234 })) });
    renderApp("/dashboard");

    expect(await screen.findByText("Your free trial expires in 10 days")).toBeInTheDocument();
    expect(await screen.findByText("1,234")).toBeInTheDocument();
    expect(await screen.findByText("4")).toBeInTheDocument();
    const expected: [string, string, string | null][] = [
      ["Total Tickets", "1,234", "/tickets"],
      ["Open Tickets", "56", "/tickets?status=open"],
      ["Solved Today", "7", null],
      ["Urgent Tickets", "3", "/tickets?priority=urgent"],
      ["Team Members", "4", "/users"],
      ["This Week", "40", null],
      ["Avg Resolution", "6h", null],
    ];
    for (const [title, value, href] of expected) {
      const item = card(title);
      expect(item).toHaveTextContent(`${title}${value}`);
      const link = within(item).queryByRole("link");
      if (href) expect(link).toHaveAttribute("href", href);
      else expect(link).toBeNull();
    }

    // 10 fetched, 5 shown.
    const section = screen.getByRole("region", { name: "Recent Tickets" });
    expect(await within(section).findByText("Issue 0")).toBeInTheDocument();
    expect(within(section).getByText("Issue 4")).toBeInTheDocument();
    expect(within(section).queryByText("Issue 5")).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain("/api/tickets?page=1&limit=10");

    const quick = screen.getByRole("region", { name: "Quick Actions" });
    expect(within(quick).getByRole("link", { name: /Unassigned tickets/ })).toHaveAttribute(
      "href",
      "/tickets?assignee_id=unassigned",
    );
    expect(within(quick).getByRole("link", { name: /Unassigned tickets/ })).toHaveTextContent("12");
    expect(within(quick).getByRole("link", { name: /High priority tickets/ })).toHaveTextContent("9");

    const trend = screen.getByRole("region", { name: "30-Day Trend" });
    expect(trend).toHaveTextContent("2 days of data · 8 tickets created");
  });

  it("says N/A without solved tickets, and shows the empty states", async () => {
    dashboardApi({
      "GET /api/tickets/stats/overview": () => json(200, { ...stats, avg_resolution_hours: null }),
      "GET /api/organizations/stats": () =>
        json(200, { basicStats: { active_users: 1, total_users: 1 }, ticketTrends: [] }),
      "GET /api/tickets": () => json(200, listAnswer([])),
    });
    renderApp("/dashboard");

    expect(await screen.findByText("N/A")).toBeInTheDocument();
    expect(await screen.findByText("No tickets yet. New requests will show up here.")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "30-Day Trend" })).not.toBeInTheDocument();
  });

  it("opens the filtered list from a card", async () => {
    dashboardApi({ "GET /api/tickets": () => json(200, listAnswer([ticketSummary({ status: "open" })])) });
    const { user, router } = renderApp("/dashboard");

    await screen.findByText("56");
    await user.click(within(card("Open Tickets")).getByRole("link"));

    expect(await screen.findByRole("heading", { name: "Tickets" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("?status=open");
    expect(screen.getByLabelText("Status")).toHaveValue("open");
  });
});

describe("the dashboard's greeting", () => {
  it("ends with one full stop when the organization's name has its own", () => {
    const user = { ...testUser, organizationName: "Acme Outdoor Co." };
    expect(greeting(user)).toBe("Welcome back, Ada. Here is what is happening at Acme Outdoor Co.");
  });

  it("welcomes a person who has just registered, and welcomes them back later", () => {
    markNewcomer(testUser.id);
    expect(greeting(testUser)).toBe("Welcome, Ada. Here is what is happening at Analytical Engines.");
    sessionStorage.clear();
    expect(greeting(testUser)).toBe("Welcome back, Ada. Here is what is happening at Analytical Engines.");
  });

  it("is on the screen", async () => {
    dashboardApi({ "GET /api/tickets": () => json(200, listAnswer([])) });
    renderApp("/dashboard");
    expect(
      await screen.findByText("Welcome back, Ada. Here is what is happening at Analytical Engines."),
    ).toBeVisible();
  });
});

describe("the 30-day trend", () => {
  it("has a scale, dates, and each day's figure for screen readers and on hover", async () => {
    const today = new Date();
    const key = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
    dashboardApi({
      "GET /api/tickets": () => json(200, listAnswer([])),
      "GET /api/organizations/stats": () =>
        json(200, {
          basicStats: { active_users: 1, total_users: 1 },
          ticketTrends: [
            { date: key(yesterday), tickets_created: 7 },
            { date: key(today), tickets_created: 1 },
          ],
        }),
    });
    renderApp("/dashboard");
    const days = within(await screen.findByRole("list", { name: "Tickets created per day" })).getAllByRole("listitem");
    expect(days).toHaveLength(30);
    expect(days.at(-2)).toHaveTextContent(`${formatDay(key(yesterday))}: 7 tickets`);
    expect(days.at(-1)).toHaveTextContent(`${formatDay(key(today))}: 1 ticket`);
    expect(days[0]).toHaveTextContent(/: 0 tickets$/);
    const trend = screen.getByRole("region", { name: "30-Day Trend" });
    // The scale's top is a round number at or above the busiest day; the last date is today.
    expect(trend).toHaveTextContent("10");
    expect(trend).toHaveTextContent(formatDay(key(today)));
    expect([1, 2, 3, 7, 11, 60].map(axisTop)).toEqual([1, 2, 5, 10, 20, 100]);
  });
});
