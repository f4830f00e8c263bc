import type { AiSettings, AiStatsAnswer } from "@cove/contract/ai.ts";
import type { OnboardingAnswer, OnboardingStepId } from "@cove/contract/onboarding.ts";
import { emptyTargets } from "@cove/contract/sla.ts";
import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { calls, json, renderApp, signedIn, testUser } from "../../../test/render-app.tsx";
import { listAnswer } from "../../tickets/test/ticket-fixtures.ts";

const stats = {
  total_tickets: 0,
  open_tickets: 0,
  tickets_today: 0,
  urgent_tickets: 0,
  unassigned_tickets: 0,
  high_priority_tickets: 0,
  tickets_this_week: 0,
  avg_resolution_hours: null,
};

const aiSettings: AiSettings = {
  enabled: true,
  handoff_threshold: 0.5,
  greeting: "Hi! How can I help?",
  tone: "friendly",
  learn_automatically: false,
  threshold_automatic: false,
  updated_at: null,
};

const aiStats: AiStatsAnswer = {
  days: 30,
  answers: 0,
  resolved: 0,
  handed_off: 0,
  resolution_rate: 0,
  average_confidence: 0,
  console_answers: 0,
  rated_helpful: 0,
  rated_unhelpful: 0,
};

function answer(done: OnboardingStepId[], articles = 0, dismissed = false): OnboardingAnswer {
  const step = (id: OnboardingStepId) => ({ id, done: done.includes(id), progress: null });
  return {
    steps: [
      step("invite_teammate"),
      step("connect_email"),
      step("add_widget"),
      { id: "write_articles", done: done.includes("write_articles"), progress: { count: articles, target: 3 } },
      step("set_business_hours"),
    ],
    dismissed,
  };
}

function dashboard(onboarding: () => Response, extra: Parameters<typeof signedIn>[0] = {}, user = testUser) {
  return signedIn(
    {
      "GET /api/tickets/stats/overview": () => json(200, stats),
      "GET /api/organizations/stats": () =>
        json(200, { basicStats: { active_users: 1, total_users: 1 }, ticketTrends: [] }),
      "GET /api/tickets": () => json(200, listAnswer([])),
      "GET /api/onboarding": onboarding,
      ...extra,
    },
    user,
  );
}

// The checklist is a lazy chunk of its own: its first load in a test run includes compiling it.
const LAZY = { timeout: 10_000 };
const checklist = () => screen.findByRole("region", { name: "Getting started" }, LAZY);

describe("the getting-started checklist", () => {
  // Compiles the dashboard and the checklist's lazy chunk once, before the first test waits for them on screen.
  beforeAll(async () => {
    await Promise.all([import("../routes/dashboard-route.tsx"), import("./getting-started.tsx")]);
  }, 60_000);

  it("shows an admin the five first steps, ticks the done ones, and links each to where it is done", async () => {
    dashboard(() => json(200, answer(["invite_teammate", "add_widget"], 2)));
    renderApp("/dashboard");
    const list = await checklist();
    expect(list).toHaveTextContent("2 of 5 done");
    expect(within(list).getByRole("progressbar", { name: "Steps done" })).toHaveAttribute("aria-valuenow", "2");
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => within(li).getByRole("link").textContent)).toEqual([
      "Invite a teammate",
      "Connect your email",
      "Add the chat widget to your website",
      "Write three help articles",
      "Set your business hours",
    ]);
    expect(items.map((li) => within(li).getByRole("link").getAttribute("href"))).toEqual([
      "/users",
      "/settings?tab=email",
      "/ai-assistant#chat-widget",
      "/knowledge-base/new",
      "/automation#business-hours",
    ]);
    expect(items.map((li) => (li.textContent?.includes("(done)") ? "done" : "to do"))).toEqual([
      "done",
      "to do",
      "done",
      "to do",
      "to do",
    ]);
    expect(items[3]).toHaveTextContent("2 of 3");
  });

  describe("lands on the step's section, below the fold, once the page has loaded", () => {
    const scrolled: Element[] = [];
    beforeAll(() => {
      // jsdom has no layout: the scroll is observed, the focus is real.
      Element.prototype.scrollIntoView = function (this: Element) {
        scrolled.push(this);
      };
    });
    afterEach(() => {
      scrolled.length = 0;
    });

    it("Set your business hours: the business hours of Automation", async () => {
      dashboard(() => json(200, answer([])), {
        "GET /api/automation/rules": () => json(200, { rules: [] }),
        "GET /api/automation/sla": () =>
          json(200, {
            targets: emptyTargets(),
            business_hours: { days: [1, 2, 3, 4, 5], opens: "09:00", closes: "17:00" },
            timezone: "UTC",
          }),
      });
      const { user } = renderApp("/dashboard");
      await user.click(within(await checklist()).getByRole("link", { name: "Set your business hours" }));
      const hours = await screen.findByRole("group", { name: "Business hours" }, LAZY);
      await waitFor(() => expect(scrolled).toEqual([hours]));
      expect(hours).toHaveAttribute("id", "business-hours");
      expect(document.activeElement).toBe(hours.querySelector("legend"));
    });

    it("Add the chat widget to your website: the snippet on the AI Assistant page", async () => {
      dashboard(() => json(200, answer([])), {
        "GET /api/ai/settings": () => json(200, { settings: aiSettings }),
        "GET /api/ai/stats": () => json(200, aiStats),
      });
      const { user } = renderApp("/dashboard");
      await user.click(within(await checklist()).getByRole("link", { name: "Add the chat widget to your website" }));
      const widget = await screen.findByRole("region", { name: "Chat widget for your website" }, LAZY);
      await waitFor(() => expect(scrolled).toEqual([widget]));
      expect(document.activeElement).toBe(
        within(widget).getByRole("heading", { name: "Chat widget for your website" }),
      );
    });
  });

  it("goes away when dismissed, and tells the server, which keeps it away", async () => {
    let dismissed = false;
    const fetchMock = dashboard(() => json(200, answer([], 0, dismissed)), {
      "PUT /api/onboarding": (init) => {
        dismissed = JSON.parse(String(init?.body)).dismissed === true;
        return json(200, answer([], 0, dismissed));
      },
    });
    const { user } = renderApp("/dashboard");
    const list = await checklist();
    await user.click(within(list).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Getting started" })).not.toBeInTheDocument());
    expect(calls(fetchMock)).toContain("PUT /api/onboarding");
    expect(dismissed).toBe(true);
  });

  it("stays when the server refuses the dismissal, and says so", async () => {
    dashboard(() => json(200, answer([])), {
      "PUT /api/onboarding": () => json(402, { error: "Your trial has ended.", code: "READ_ONLY" }),
    });
    const { user } = renderApp("/dashboard");
    await user.click(within(await checklist()).getByRole("button", { name: "Dismiss" }));
    expect(await screen.findByText("Your trial has ended.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Getting started" })).toBeInTheDocument();
  });

  it("says all is set once every step is done", async () => {
    dashboard(() =>
      json(200, answer(["invite_teammate", "connect_email", "add_widget", "write_articles", "set_business_hours"], 3)),
    );
    renderApp("/dashboard");
    const done = await screen.findByRole("region", { name: "You're all set" }, LAZY);
    expect(done).toHaveTextContent("Every first step is done.");
    expect(within(done).getByRole("button", { name: "Dismiss" })).toBeInTheDocument();
  });

  it("is not shown once dismissed, nor to an agent, who is never asked for it", async () => {
    let answered = false;
    dashboard(() => {
      answered = true;
      return json(200, answer([], 0, true));
    });
    const first = renderApp("/dashboard");
    await waitFor(() => expect(answered).toBe(true), LAZY);
    // Let the answer reach the screen.
    await act(async () => {});
    expect(screen.queryByText("Connect your email")).not.toBeInTheDocument();
    first.unmount();

    const fetchMock = dashboard(() => json(200, answer([])), {}, { ...testUser, role: "agent" });
    renderApp("/dashboard");
    expect(await screen.findByText("No tickets yet. New requests will show up here.")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Getting started" })).not.toBeInTheDocument();
    expect(calls(fetchMock)).not.toContain("GET /api/onboarding");
  });
});
