import type { AiResponseAnswer, AiSettings, AiStatsAnswer } from "@cove/contract/ai.ts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser, trialAnswer } from "../../../test/render-app.tsx";

const settings: AiSettings = {
  enabled: true,
  handoff_threshold: 0.5,
  greeting: "Hello from Analytical Engines! How can I help?",
  tone: "friendly",
  updated_at: null,
};

const stats: AiStatsAnswer = {
  days: 30,
  answers: 12,
  resolved: 9,
  handed_off: 3,
  resolution_rate: 0.75,
  average_confidence: 0.81,
  console_answers: 4,
};

const answered: AiResponseAnswer = {
  response:
    'Here\'s what our help article "How to return an item" says:\n\nYou can return unused items within 30 days.',
  confidence: 0.93,
  suggestedActions: ["Read: How to return an item", "Talk to a human"],
  sources: [
    { id: "4f1c2b7e-7c1d-4a0e-9d8f-2b3c4d5e6f70", title: "How to return an item", url: "/help/acme/articles/returns" },
  ],
  handoff: false,
};

const handedOff: AiResponseAnswer = {
  response: "I couldn't find an answer to that in our help articles.",
  confidence: 0.07,
  suggestedActions: ["Talk to a human"],
  sources: [],
  handoff: true,
};

function signedIn(handlers: Parameters<typeof mockApi>[0] = {}, role: "admin" | "agent" = "admin") {
  const user = { ...testUser, role };
  storeSession(user);
  return mockApi({
    "GET /api/auth/me": () => json(200, { user }),
    "GET /api/trial/status": () => json(200, trialAnswer),
    "GET /api/ai/settings": () => json(200, { settings }),
    "GET /api/ai/stats": () => json(200, stats),
    ...handlers,
  });
}

describe("AI Assistant page", () => {
  it("answers in the test console with the source, confidence and suggested actions, and shows a hand-off", async () => {
    const questions: unknown[] = [];
    const fetchMock = signedIn({
      "POST /api/chat/ai-response": (init) => {
        const body = JSON.parse(String(init?.body));
        questions.push(body);
        return json(200, questions.length === 1 ? answered : handedOff);
      },
    });
    const { user } = renderApp("/ai-assistant");

    const chat = await screen.findByRole("region", { name: "Test conversation with your assistant" });
    expect(within(chat).getByText("Hello from Analytical Engines! How can I help?")).toBeInTheDocument();

    const box = screen.getByRole("textbox", { name: "Your question" });
    await user.type(box, "How do I return an item?{Enter}");
    expect(await within(chat).findByText(/You can return unused items within 30 days/)).toBeInTheDocument();
    expect(within(chat).getByText("Confidence: 93% (high)")).toBeInTheDocument();
    expect(within(chat).getByRole("link", { name: "How to return an item" })).toHaveAttribute(
      "href",
      "/help/acme/articles/returns",
    );
    expect(within(chat).getByText("Read: How to return an item")).toBeInTheDocument();
    // The answer quotes a passage; the whole article is linked from the answer itself.
    expect(within(chat).getByRole("link", { name: "Read the full article: How to return an item" })).toHaveAttribute(
      "href",
      "/help/acme/articles/returns",
    );
    // The console asks as the signed-in user: its own organization's articles.
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith("/chat/ai-response")) ?? [];
    expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer stored-token");

    await user.type(box, "Do you sell spaceships?{Enter}");
    expect(await within(chat).findByText("Handed off to a person")).toBeInTheDocument();
    expect(within(chat).getByText("Confidence: 7% (low)")).toBeInTheDocument();
    expect(within(chat).getAllByRole("link", { name: /Read the full article/ })).toHaveLength(1);
    // The earlier turns go along, so follow-ups are understood.
    expect(questions[1]).toMatchObject({
      message: "Do you sell spaceships?",
      conversation: [
        { role: "user", content: "How do I return an item?" },
        { role: "assistant", content: answered.response },
      ],
    });
  });

  it("keeps the question and says why when the assistant cannot answer", async () => {
    signedIn({
      "POST /api/chat/ai-response": () =>
        json(500, { error: "Something went wrong on our side.", code: "INTERNAL_ERROR" }),
    });
    const { user } = renderApp("/ai-assistant");
    const box = await screen.findByRole("textbox", { name: "Your question" });
    await user.type(box, "Where is my order?{Enter}");
    expect(await screen.findByText("Something went wrong on our side.")).toBeInTheDocument();
    expect(box).toHaveValue("Where is my order?");
  });

  it("shows the measured resolution rate with its counts", async () => {
    signedIn();
    renderApp("/ai-assistant");
    const card = await screen.findByRole("region", { name: "Resolution rate" });
    expect(await within(card).findByText("75%")).toBeInTheDocument();
    expect(within(card).getByText("9 of 12 questions")).toBeInTheDocument();
    expect(within(card).getByText("81%")).toBeInTheDocument();
    expect(within(card).getByText(/Test console questions are not counted \(4 questions/)).toBeInTheDocument();
  });

  it("lets an admin change the threshold, greeting and tone", async () => {
    let saved: unknown;
    signedIn({
      "PUT /api/ai/settings": (init) => {
        saved = JSON.parse(String(init?.body));
        return json(200, { settings: { ...settings, handoff_threshold: 0.7, greeting: "Hi there", tone: "concise" } });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const form = await screen.findByRole("form", { name: "Settings" });
    const slider = within(form).getByRole("slider", { name: "Hand-off below 50% confidence" });
    // jsdom does not move a range input with the keyboard; set it as the browser would.
    fireEvent.change(slider, { target: { value: "70" } });
    expect(within(form).getByRole("slider", { name: "Hand-off below 70% confidence" })).toBeInTheDocument();
    const greeting = within(form).getByRole("textbox", { name: "Greeting" });
    await user.clear(greeting);
    await user.type(greeting, "Hi there");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Tone" }), "concise");
    await user.click(within(form).getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("AI assistant settings saved")).toBeInTheDocument();
    expect(saved).toEqual({ enabled: true, handoff_threshold: 0.7, greeting: "Hi there", tone: "concise" });
  });

  it("refuses a blank greeting before calling the server", async () => {
    const fetchMock = signedIn();
    const { user } = renderApp("/ai-assistant");
    const form = await screen.findByRole("form", { name: "Settings" });
    await user.clear(within(form).getByRole("textbox", { name: "Greeting" }));
    await user.click(within(form).getByRole("button", { name: "Save settings" }));
    expect(await within(form).findByText("Greeting is required")).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false));
  });

  it("shows agents the settings without letting them change them", async () => {
    signedIn({}, "agent");
    renderApp("/ai-assistant");
    const form = await screen.findByRole("form", { name: "Settings" });
    expect(within(form).getByText("Only an administrator can change these settings.")).toBeInTheDocument();
    expect(within(form).getByRole("checkbox", { name: /Answer customers automatically/ })).toBeDisabled();
    expect(within(form).getByRole("textbox", { name: "Greeting" })).toBeDisabled();
    expect(within(form).queryByRole("button", { name: "Save settings" })).not.toBeInTheDocument();
  });
});
