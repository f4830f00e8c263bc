import type {
  AiResponseAnswer,
  AiSettings,
  AiStatsAnswer,
  AiUnansweredAnswer,
  ThresholdProposal,
} from "@cove/contract/ai.ts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, renderApp, signedIn, testUser } from "../../../test/render-app.tsx";
import { articleSummary, listAnswer } from "../../kb/test/kb-fixtures.ts";

const settings: AiSettings = {
  enabled: true,
  handoff_threshold: 0.5,
  greeting: "Hello from Analytical Engines! How can I help?",
  tone: "friendly",
  learn_automatically: false,
  threshold_automatic: false,
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
  rated_helpful: 5,
  rated_unhelpful: 1,
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
  answerId: "0b6a2f5e-3c1d-4e8f-9a7b-1c2d3e4f5a6b",
};

const SHIPPING_ID = "7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a";
const unanswered: AiUnansweredAnswer = {
  days: 30,
  groups: [
    {
      question: "When will my parcel arrive in Canada?",
      count: 3,
      questions: ["When will my parcel arrive in Canada?", "parcels to canada"],
      last_asked_at: "2026-11-24T10:00:00.000Z",
      handed_off: 3,
      suggested_article: { id: SHIPPING_ID, title: "International shipping" },
    },
  ],
};

const publishedArticles = listAnswer(
  [
    { id: "4f1c2b7e-7c1d-4a0e-9d8f-2b3c4d5e6f70", title: "How to return an item" },
    { id: SHIPPING_ID, title: "International shipping" },
  ].map((a) => articleSummary({ ...a, slug: a.title.toLowerCase().replaceAll(" ", "-") })),
);

const handedOff: AiResponseAnswer = {
  response: "I couldn't find an answer to that in our help articles.",
  confidence: 0.07,
  suggestedActions: ["Talk to a human"],
  sources: [],
  handoff: true,
};

/** Too little history: 12 answerable labelled questions, fewer than the 20 a proposal needs. */
const noProposal: ThresholdProposal = {
  target: 0.1,
  current: 0.5,
  automatic: false,
  labelled: { answerable: 12, uncovered: 3, wrong: 0 },
  minimum: 20,
  automatic_from: 50,
  proposed: null,
  at_proposed: null,
  at_current: { threshold: 0.5, answerable_handed_off: 0.25, uncovered_handed_off: 2 / 3, wrong_handed_off: null },
  curve: [],
  message:
    "Only 12 of your customers' questions are labelled as answerable; with fewer than 20 the assistant keeps the default threshold (0.5) or the one you set.",
};

/** Signed in on the AI Assistant screen, with its answers beside `handlers`. */
function aiScreen(handlers: Parameters<typeof signedIn>[0] = {}, role: "admin" | "agent" = "admin") {
  return signedIn(
    {
      "GET /api/ai/settings": () => json(200, { settings }),
      "GET /api/ai/stats": () => json(200, stats),
      "GET /api/ai/unanswered": () => json(200, { days: 30, groups: [] }),
      "GET /api/kb/articles": () => json(200, publishedArticles),
      "GET /api/ai/threshold": () => json(200, noProposal),
      ...handlers,
    },
    { ...testUser, role },
  );
}

describe("AI Assistant page", () => {
  it("answers in the test console with the source, confidence and suggested actions, and shows a hand-off", async () => {
    const questions: unknown[] = [];
    const fetchMock = aiScreen({
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
    expect(within(chat).getByRole("link", { name: "Read the full article" })).toHaveAttribute(
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
    aiScreen({
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
    aiScreen();
    renderApp("/ai-assistant");
    const card = await screen.findByRole("region", { name: "Resolution rate" });
    expect(await within(card).findByText("75%")).toBeInTheDocument();
    expect(within(card).getByText("9 of 12 questions")).toBeInTheDocument();
    expect(within(card).getByText("81%")).toBeInTheDocument();
    expect(within(card).getByText("5 of 6 ratings")).toBeInTheDocument();
    expect(within(card).getByText(/Test console questions are not counted \(4 questions/)).toBeInTheDocument();
  });

  it("lets an admin change the threshold, greeting and tone, and accept the team's questions automatically", async () => {
    let saved: unknown;
    aiScreen({
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
    await user.click(within(form).getByRole("checkbox", { name: /Accept questions your team answered automatically/ }));
    await user.click(within(form).getByRole("checkbox", { name: /Adjust the threshold automatically/ }));
    await user.click(within(form).getByRole("button", { name: "Save settings" }));
    expect(await screen.findByText("AI assistant settings saved")).toBeInTheDocument();
    expect(saved).toEqual({
      enabled: true,
      handoff_threshold: 0.7,
      greeting: "Hi there",
      tone: "concise",
      learn_automatically: true,
      threshold_automatic: true,
    });
  });

  it("refuses a blank greeting before calling the server", async () => {
    const fetchMock = aiScreen();
    const { user } = renderApp("/ai-assistant");
    const form = await screen.findByRole("form", { name: "Settings" });
    await user.clear(within(form).getByRole("textbox", { name: "Greeting" }));
    await user.click(within(form).getByRole("button", { name: "Save settings" }));
    expect(await within(form).findByText("Greeting is required")).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false));
  });

  it("shows agents the settings without letting them change them", async () => {
    aiScreen({}, "agent");
    renderApp("/ai-assistant");
    const form = await screen.findByRole("form", { name: "Settings" });
    expect(within(form).getByText("Only an administrator can change these settings.")).toBeInTheDocument();
    expect(within(form).getByRole("checkbox", { name: /Answer customers automatically/ })).toBeDisabled();
    expect(within(form).getByRole("textbox", { name: "Greeting" })).toBeDisabled();
    expect(within(form).queryByRole("button", { name: "Save settings" })).not.toBeInTheDocument();
  });

  it("rates an answer in the test console with a thumbs up or down", async () => {
    let rated: unknown;
    aiScreen({
      "POST /api/chat/ai-response": () => json(200, answered),
      "POST /api/chat/ai-feedback": (init) => {
        rated = JSON.parse(String(init?.body));
        return json(200, { message: "Thanks for the feedback" });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const chat = await screen.findByRole("region", { name: "Test conversation with your assistant" });
    await user.type(screen.getByRole("textbox", { name: "Your question" }), "How do I return an item?{Enter}");
    await user.click(await within(chat).findByRole("button", { name: "No" }));
    expect(await within(chat).findByText("Thanks for the feedback")).toBeInTheDocument();
    expect(within(chat).getByRole("button", { name: "No" })).toHaveAttribute("aria-pressed", "true");
    expect(rated).toEqual({ answerId: answered.answerId, helpful: false });
  });

  it("lists the questions it could not answer and lets an admin attach a group to the suggested article", async () => {
    let attached: unknown;
    let list = unanswered;
    aiScreen({
      "GET /api/ai/unanswered": () => json(200, list),
      "POST /api/ai/unanswered/attach": (init) => {
        attached = JSON.parse(String(init?.body));
        list = { days: 30, groups: [] };
        return json(200, { article: { id: SHIPPING_ID, title: "International shipping" }, reviewed: 3 });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Questions the assistant could not answer" });
    expect(await within(section).findByText("When will my parcel arrive in Canada?")).toBeInTheDocument();
    expect(within(section).getByText(/Asked 3 times · 3 handed off/)).toBeInTheDocument();
    expect(within(section).getByText(/Also asked as: “parcels to canada”/)).toBeInTheDocument();
    const select = within(section).getByRole("combobox", { name: "Article" });
    await waitFor(() => expect(select).toHaveValue(SHIPPING_ID));
    await user.click(within(section).getByRole("button", { name: "Attach to article" }));
    expect(await screen.findByText('Added to "International shipping" as example questions')).toBeInTheDocument();
    expect(attached).toEqual({
      article_id: SHIPPING_ID,
      questions: ["When will my parcel arrive in Canada?", "parcels to canada"],
    });
    expect(await within(section).findByText(/Nothing to review/)).toBeInTheDocument();
  });

  it("starts a new draft article from a group and opens it in the editor", async () => {
    let started: unknown;
    const draftId = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
    aiScreen({
      "GET /api/ai/unanswered": () => json(200, unanswered),
      "POST /api/ai/unanswered/new-article": (init) => {
        started = JSON.parse(String(init?.body));
        return json(201, { article: { id: draftId, title: "When will my parcel arrive in Canada?" }, reviewed: 3 });
      },
    });
    const { user, router } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Questions the assistant could not answer" });
    await user.click(await within(section).findByRole("button", { name: "Start a new article" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/knowledge-base/${draftId}/edit`));
    expect(started).toEqual({
      title: "When will my parcel arrive in Canada?",
      questions: ["When will my parcel arrive in Canada?", "parcels to canada"],
    });
  });

  it("shows agents the questions without the buttons to change articles", async () => {
    aiScreen({ "GET /api/ai/unanswered": () => json(200, unanswered) }, "agent");
    renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Questions the assistant could not answer" });
    expect(await within(section).findByText("When will my parcel arrive in Canada?")).toBeInTheDocument();
    expect(within(section).getByText(/An administrator can attach them to an article/)).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Attach to article" })).not.toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Not covered" })).not.toBeInTheDocument();
  });

  it("lets an admin say no article covers a group: it leaves the list", async () => {
    let marked: unknown;
    let list = unanswered;
    aiScreen({
      "GET /api/ai/unanswered": () => json(200, list),
      "POST /api/ai/unanswered/not-covered": (init) => {
        marked = JSON.parse(String(init?.body));
        list = { days: 30, groups: [] };
        return json(200, { reviewed: 3 });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Questions the assistant could not answer" });
    await user.click(await within(section).findByRole("button", { name: "Not covered" }));
    expect(
      await screen.findByText(
        "“When will my parcel arrive in Canada?” is marked as not covered by any article: the assistant should hand it off",
      ),
    ).toBeInTheDocument();
    expect(marked).toEqual({ questions: ["When will my parcel arrive in Canada?", "parcels to canada"] });
    expect(await within(section).findByText(/Nothing to review/)).toBeInTheDocument();
  });

  it("says why a group could not be marked as not covered", async () => {
    aiScreen({
      "GET /api/ai/unanswered": () => json(200, unanswered),
      "POST /api/ai/unanswered/not-covered": () =>
        json(404, { error: "Some unanswered question not found", code: "NOT_FOUND" }),
    });
    const { user } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Questions the assistant could not answer" });
    await user.click(await within(section).findByRole("button", { name: "Not covered" }));
    expect(await screen.findByText("Some unanswered question not found")).toBeInTheDocument();
  });
});

describe("Your own hand-off threshold", () => {
  /** Proposals for two targets, on a history of 40 answerable, 10 uncovered and 4 wrongly answered questions. */
  const curve = [
    { threshold: 0.4, answerable_handed_off: 0.05, uncovered_handed_off: 0.6, wrong_handed_off: 0.5 },
    { threshold: 0.5, answerable_handed_off: 0.2, uncovered_handed_off: 0.8, wrong_handed_off: 0.75 },
    { threshold: 0.6, answerable_handed_off: 0.45, uncovered_handed_off: 1, wrong_handed_off: 1 },
  ];
  const proposals: Record<string, ThresholdProposal> = {
    "0.1": {
      ...noProposal,
      curve,
      labelled: { answerable: 40, uncovered: 10, wrong: 4 },
      proposed: 0.42,
      at_proposed: { threshold: 0.42, answerable_handed_off: 0.09, uncovered_handed_off: 0.71, wrong_handed_off: 0.5 },
      at_current: { threshold: 0.5, answerable_handed_off: 0.2, uncovered_handed_off: 0.8, wrong_handed_off: 0.75 },
      message:
        "At 0.42: 9% of answerable questions handed off, 71% of uncovered ones handed off, 50% of those answered wrongly handed off.",
    },
    "0.2": {
      ...noProposal,
      target: 0.2,
      labelled: { answerable: 40, uncovered: 10, wrong: 4 },
      proposed: 0.52,
      at_proposed: { threshold: 0.52, answerable_handed_off: 0.2, uncovered_handed_off: 0.9, wrong_handed_off: 0.75 },
      at_current: { threshold: 0.5, answerable_handed_off: 0.2, uncovered_handed_off: 0.8, wrong_handed_off: 0.75 },
      message:
        "At 0.52: 20% of answerable questions handed off, 90% of uncovered ones handed off, 75% of those answered wrongly handed off.",
    },
  };

  it("shows the trade-off for the chosen target on the organization's own questions, and applies it", async () => {
    let applied: unknown;
    const fetchMock = aiScreen({
      "GET /api/ai/threshold": () => {
        // The call being answered is the last one made.
        const url = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), "http://localhost");
        return json(200, proposals[url.searchParams.get("target") ?? ""] ?? noProposal);
      },
      "POST /api/ai/threshold/apply": (init) => {
        applied = JSON.parse(String(init?.body));
        return json(200, { ...proposals["0.2"], current: 0.52 });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const card = await screen.findByRole("form", { name: "Your own hand-off threshold" });
    expect(
      await within(card).findByText(
        "At 0.42: 9% of answerable questions handed off, 71% of uncovered ones handed off, 50% of those answered wrongly handed off.",
      ),
    ).toBeInTheDocument();
    expect(card).toHaveTextContent(
      "From 40 answerable and 10 uncovered questions of your customers, and 4 answers your team marked wrong. Now, at 0.50: 20% of answerable and 80% of uncovered questions handed off, and 75% of those answered wrongly.",
    );
    // Every threshold's trade-off, with the current and proposed ones in rows of their own.
    await user.click(within(card).getByText("Every threshold on your past questions"));
    const curve = within(card).getByRole("table", { name: "What each threshold hands off of your labelled questions" });
    const rows = within(curve)
      .getAllByRole("row")
      .map((row) => [...row.children].map((cell) => cell.textContent).join(" | "));
    expect(rows).toEqual([
      "Hand off below | Answerable handed off | Uncovered handed off | Wrong answers handed off",
      "0.40 | 5% | 60% | 50%",
      "0.42 (proposed) | 9% | 71% | 50%",
      "0.50 (now) | 20% | 80% | 75%",
      "0.60 | 45% | 100% | 100%",
    ]);
    await user.selectOptions(
      within(card).getByRole("combobox", { name: "Answerable questions you accept to see handed off" }),
      "0.2",
    );
    expect(await within(card).findByText(/^At 0\.52: 20% of answerable questions handed off/)).toBeInTheDocument();
    await user.click(within(card).getByRole("button", { name: "Apply 0.52" }));
    expect(await screen.findByText("Hand-off threshold set to 0.52")).toBeInTheDocument();
    expect(applied).toEqual({ target: 0.2 });
  });

  it("says plainly when there is too little history, and keeps the threshold", async () => {
    aiScreen();
    renderApp("/ai-assistant");
    const card = await screen.findByRole("form", { name: "Your own hand-off threshold" });
    expect(await within(card).findByText(noProposal.message)).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Apply threshold" })).toBeDisabled();
    expect(card).toHaveTextContent(
      "From 12 answerable and 3 uncovered questions of your customers. Now, at 0.50: 25% of answerable and 67% of uncovered questions handed off.",
    );
  });

  it("with nothing labelled, says so in words rather than blank figures", async () => {
    const empty = {
      ...noProposal,
      labelled: { answerable: 0, uncovered: 0, wrong: 0 },
      at_current: { threshold: 0.5, answerable_handed_off: 0, uncovered_handed_off: null, wrong_handed_off: null },
      message:
        "None of your customers' questions is labelled as answerable yet; with fewer than 20 the assistant keeps the default threshold (0.5) or the one you set.",
    };
    aiScreen({ "GET /api/ai/threshold": () => json(200, empty) });
    renderApp("/ai-assistant");
    const card = await screen.findByRole("form", { name: "Your own hand-off threshold" });
    expect(
      await within(card).findByText(
        "Nothing to measure a threshold against yet. A question is labelled when a customer gives its answer a thumbs up, and when your team attaches it to an article, accepts it as an article's example question, marks its answer wrong or says no article covers it.",
      ),
    ).toBeInTheDocument();
    expect(card).not.toHaveTextContent("n/a");
    expect(card).not.toHaveTextContent("of answerable");
  });

  it("leaves out a kind of question none of which is labelled", async () => {
    const onlyAnswerable = {
      ...noProposal,
      labelled: { answerable: 12, uncovered: 0, wrong: 0 },
      at_current: { threshold: 0.5, answerable_handed_off: 0.25, uncovered_handed_off: null, wrong_handed_off: null },
    };
    aiScreen({ "GET /api/ai/threshold": () => json(200, onlyAnswerable) });
    renderApp("/ai-assistant");
    const card = await screen.findByRole("form", { name: "Your own hand-off threshold" });
    expect(
      await within(card).findByText(
        "From 12 answerable and 0 uncovered questions of your customers. Now, at 0.50: 25% of answerable questions handed off.",
      ),
    ).toBeInTheDocument();
  });
});

describe("Suggested by your team", () => {
  const suggestion = {
    id: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
    question: "Do you deliver to Norway?",
    source: "chat" as const,
    article: { id: SHIPPING_ID, title: "International shipping", questions: 2 },
    created_at: "2026-11-24T10:00:00.000Z",
  };

  it("adds every suggestion in one click, says what was done, and marks a full article", async () => {
    let left = [
      suggestion,
      {
        ...suggestion,
        id: "6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e",
        question: "Is shipping free?",
        article: { ...suggestion.article, questions: 20 },
      },
    ];
    const bodies: unknown[] = [];
    aiScreen({
      "GET /api/ai/suggestions": () => json(200, { suggestions: left }),
      "POST /api/ai/suggestions/review": (init) => {
        bodies.push(JSON.parse(String(init?.body)));
        left = left.filter((s) => s.id !== suggestion.id);
        return json(200, {
          accepted: 1,
          duplicates: 0,
          dismissed: 0,
          kept: [{ id: left[0]?.id, question: "Is shipping free?", reason: "full" }],
          message: "1 question added to their articles, 1 kept for later: their article is full.",
        });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Suggested by your team" });
    expect(within(section).getByText(/has 20 example questions, the most it can have/)).toBeInTheDocument();
    expect(within(section).getByText(/at most 20 example/)).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Add all 2 to their articles" }));
    expect(
      await screen.findByText("1 question added to their articles, 1 kept for later: their article is full."),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ ids: [suggestion.id, "6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e"], action: "accept" }]);
    await waitFor(() => expect(within(section).queryByText("“Do you deliver to Norway?”")).not.toBeInTheDocument());
  });

  it("lets an admin add a question an agent answered with an article to that article, or dismiss it", async () => {
    let left = [
      suggestion,
      { ...suggestion, id: "6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e", question: "Is shipping free?" },
    ];
    const reviewed: string[] = [];
    aiScreen({
      "GET /api/ai/suggestions": () => json(200, { suggestions: left }),
      [`POST /api/ai/suggestions/${suggestion.id}/accept`]: () => {
        reviewed.push("accept");
        left = left.filter((s) => s.id !== suggestion.id);
        return json(200, {
          message: '"Do you deliver to Norway?" is now an example question of "International shipping".',
        });
      },
      "POST /api/ai/suggestions/6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e/dismiss": () => {
        reviewed.push("dismiss");
        left = [];
        return json(200, { message: "Suggestion dismissed." });
      },
    });
    const { user } = renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Suggested by your team" });
    expect(within(section).getByText("“Do you deliver to Norway?”")).toBeInTheDocument();
    expect(within(section).getAllByRole("link", { name: "International shipping" })[0]).toHaveAttribute(
      "href",
      `/knowledge-base/${SHIPPING_ID}`,
    );
    expect(within(section).getAllByText(/in a live chat/)).toHaveLength(2);
    await user.click(within(section).getAllByRole("button", { name: "Add to article" })[0] as HTMLElement);
    expect(
      await screen.findByText('"Do you deliver to Norway?" is now an example question of "International shipping".'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryByText("“Do you deliver to Norway?”")).not.toBeInTheDocument());
    await user.click(within(section).getByRole("button", { name: "Dismiss" }));
    await waitFor(() =>
      expect(screen.queryByRole("region", { name: "Suggested by your team" })).not.toBeInTheDocument(),
    );
    expect(reviewed).toEqual(["accept", "dismiss"]);
  });

  it("says where each suggestion came from: an agent's link in a chat or a ticket, or a visitor's thumbs up", async () => {
    const rated = { ...suggestion, id: "7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f", question: "Ship to Oslo?" };
    aiScreen({
      "GET /api/ai/suggestions": () =>
        json(200, {
          suggestions: [
            suggestion,
            {
              ...suggestion,
              id: "6b5c4d3e-2f1a-4b0c-9d8e-7f6a5b4c3d2e",
              question: "Is shipping free?",
              source: "ticket",
            },
            { ...rated, source: "rated" },
          ],
        }),
    });
    renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Suggested by your team" });
    const rowOf = (question: string) => within(section).getByText(`“${question}”`).parentElement as HTMLElement;
    expect(rowOf("Do you deliver to Norway?")).toHaveTextContent("Answered with International shipping in a live chat");
    expect(rowOf("Is shipping free?")).toHaveTextContent("Answered with International shipping in a ticket");
    expect(rowOf("Ship to Oslo?")).toHaveTextContent(
      "Rated helpful in a live chat, where the assistant answered with International shipping",
    );
    expect(within(rowOf("Ship to Oslo?")).getByRole("link", { name: "International shipping" })).toHaveAttribute(
      "href",
      `/knowledge-base/${SHIPPING_ID}`,
    );
  });

  it("shows agents the suggestions without the buttons", async () => {
    aiScreen({ "GET /api/ai/suggestions": () => json(200, { suggestions: [suggestion] }) }, "agent");
    renderApp("/ai-assistant");
    const section = await screen.findByRole("region", { name: "Suggested by your team" });
    expect(within(section).getByText(/An administrator can add them to the articles/)).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Add to article" })).not.toBeInTheDocument();
  });
});
