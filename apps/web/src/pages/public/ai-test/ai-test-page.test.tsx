import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { CANNED_NOTE, NO_DEMO_TITLE, QUICK_QUESTIONS, WELCOME } from "./ai-test-page.tsx";

const returns: AiResponseAnswer = {
  response:
    'Here\'s what our help article "How to return an item" says:\n\nYou can return unused items within 30 days.',
  confidence: 0.91,
  suggestedActions: ["Read: How to return an item", "Talk to a human"],
  sources: [
    { id: "0d6e4c1a-3b2f-4a5e-8c7d-9e0f1a2b3c4d", title: "How to return an item", url: "/help/acme/articles/returns" },
  ],
  handoff: false,
};

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("/ai-test", () => {
  it("greets, offers the five quick questions, thinks, then shows the reply with confidence, actions and sources", async () => {
    const pending = deferred<Response>();
    const bodies: unknown[] = [];
    const fetchMock = mockApi({
      "POST /api/chat/ai-response": (init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return pending.promise;
      },
    });
    const { user } = renderApp("/ai-test");

    const chat = await screen.findByRole("region", { name: "Conversation with the AI assistant" });
    expect(within(chat).getByText(WELCOME)).toBeInTheDocument();
    const quick = screen.getByRole("group", { name: "Quick questions" });
    expect(
      within(quick)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual([...QUICK_QUESTIONS]);

    await user.click(within(quick).getByRole("button", { name: "How do I return an item?" }));
    expect(within(chat).getByText("How do I return an item?")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Assistant is thinking");

    pending.resolve(json(200, returns));
    expect(await within(chat).findByText(/You can return unused items within 30 days/)).toBeInTheDocument();
    expect(screen.queryByText("Assistant is thinking")).not.toBeInTheDocument();
    expect(within(chat).getByText("Confidence: 91% (high)")).toBeInTheDocument();
    expect(within(chat).getByText("Read: How to return an item")).toBeInTheDocument();
    expect(within(chat).getByText("Talk to a human")).toBeInTheDocument();
    expect(within(chat).getByRole("link", { name: "How to return an item" })).toHaveAttribute(
      "href",
      "/help/acme/articles/returns",
    );
    expect(bodies[0]).toMatchObject({ message: "How do I return an item?", customerInfo: { plan: "demo" } });
    expect(calls(fetchMock).filter((c) => c.includes("ai-response"))).toHaveLength(1);
  });

  it("shows an answer's Markdown as the help center does, sanitized, and takes one thumbs that can be changed", async () => {
    const answerId = "5d6e4c1a-3b2f-4a5e-8c7d-9e0f1a2b3c4d";
    const ratings: unknown[] = [];
    mockApi({
      "POST /api/chat/ai-response": () =>
        json(200, {
          ...returns,
          answerId,
          response:
            "To start a return:\n1. Open **Orders**.\n2. Print the label.\n\n| Option | Cost |\n|---|---|\n| Standard | $5 |\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>",
        }),
      "POST /api/chat/ai-feedback": (init) => {
        ratings.push(JSON.parse(String(init?.body)));
        return json(200, { message: "Thanks for the feedback" });
      },
    });
    const { user } = renderApp("/ai-test");
    const chat = await screen.findByRole("region", { name: "Conversation with the AI assistant" });
    await user.click(
      within(screen.getByRole("group", { name: "Quick questions" })).getAllByRole("button")[0] as HTMLElement,
    );

    const steps = (await within(chat).findByText("Print the label.")).closest("ol") as HTMLElement;
    expect(
      within(steps)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Open Orders.", "Print the label."]);
    expect(within(chat).getByRole("cell", { name: "$5" })).toBeInTheDocument();
    expect(chat.querySelector("img, script, [onerror], a[href^='javascript']")).toBeNull();
    expect(chat).toHaveTextContent("[x](javascript:alert(1)) <img src=x onerror=alert(1)>");

    const no = within(chat).getByRole("button", { name: "No" });
    const yes = within(chat).getByRole("button", { name: "Yes" });
    no.focus();
    await user.keyboard("{Enter}");
    expect(await within(chat).findByText("Thanks for the feedback")).toBeInTheDocument();
    expect(no).toHaveAttribute("aria-pressed", "true");
    expect(yes).toHaveAttribute("aria-pressed", "false");
    await user.click(yes);
    await waitFor(() => expect(yes).toHaveAttribute("aria-pressed", "true"));
    expect(no).toHaveAttribute("aria-pressed", "false");
    expect(ratings).toEqual([
      { answerId, helpful: false },
      { answerId, helpful: true },
    ]);
  });

  it("sends a typed question with Enter, ignores an empty one, and never sends the visitor's own session", async () => {
    storeSession(testUser, "staff-token");
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "POST /api/chat/ai-response": () => json(200, returns),
    });
    const { user } = renderApp("/ai-test");
    const box = await screen.findByRole("textbox", { name: "Your question" });

    await user.type(box, "   {Enter}");
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes("ai-response"))).toHaveLength(0);

    await user.clear(box);
    await user.type(box, "Can I return boots I wore once?{Enter}");
    expect(await screen.findByText(/You can return unused items/)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes("ai-response"));
    expect(new Headers(call?.[1]?.headers).get("Authorization")).toBeNull();
    expect(box).toHaveValue("");
  });

  it("falls back to a clearly marked canned reply when the call fails", async () => {
    mockApi({
      "POST /api/chat/ai-response": () => json(429, { error: "Too many requests.", code: "RATE_LIMITED" }),
    });
    const { user } = renderApp("/ai-test");
    const quick = await screen.findByRole("group", { name: "Quick questions" });

    await user.click(within(quick).getByRole("button", { name: "Where is my order?" }));
    expect(await screen.findByText(/I can't reach the assistant right now/)).toBeInTheDocument();
    expect(screen.getByText(CANNED_NOTE)).toBeInTheDocument();
    expect(screen.getByText("Confidence: 0% (low)")).toBeInTheDocument();

    await user.click(within(quick).getByRole("button", { name: "Can I talk to a person?" }));
    expect(await screen.findByText("Of course. I'll connect you with a person from our team.")).toBeInTheDocument();
    expect(screen.getAllByText("Handed off to a person")).toHaveLength(2);
  });

  it("says plainly, on arrival, when the server has no demo organization", async () => {
    const fetchMock = mockApi({
      "GET /api/demo": () => json(200, { available: false, organization: null, message: DEMO_UNAVAILABLE }),
    });
    renderApp("/ai-test");
    expect(await screen.findByRole("heading", { name: NO_DEMO_TITLE })).toBeInTheDocument();
    expect(screen.getByText(DEMO_UNAVAILABLE)).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Conversation with the AI assistant" })).not.toBeInTheDocument();
    // Nothing on the page speaks as if the demo store were there.
    expect(screen.queryByText(/You are a customer of Acme/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/register");
    expect(calls(fetchMock).filter((c) => c.includes("ai-response"))).toHaveLength(0);
  });

  it("keeps saying so when the arrival check answers after a question found the demo gone", async () => {
    let answerArrival: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      answerArrival = resolve;
    });
    mockApi({
      // The arrival check is slow: it answers "available" only after the question has been refused.
      "GET /api/demo": async () => {
        await arrival;
        return json(200, { available: true, organization: { name: "Acme Outdoor Co.", slug: "acme" } });
      },
      "POST /api/chat/ai-response": () => json(404, { error: DEMO_UNAVAILABLE, code: "DEMO_UNAVAILABLE" }),
    });
    const { user } = renderApp("/ai-test");
    const quick = await screen.findByRole("group", { name: "Quick questions" });
    await user.click(within(quick).getByRole("button", { name: "Where is my order?" }));
    expect(await screen.findByRole("heading", { name: NO_DEMO_TITLE })).toBeInTheDocument();
    answerArrival();
    // Give the late answer its turn, then the page still says the demo is gone.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole("heading", { name: NO_DEMO_TITLE })).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Quick questions" })).not.toBeInTheDocument();
  });

  it("says so too when the demo goes away while the page is open", async () => {
    mockApi({
      "GET /api/demo": () => json(200, { available: true, organization: { name: "Acme Outdoor Co.", slug: "acme" } }),
      "POST /api/chat/ai-response": () => json(404, { error: DEMO_UNAVAILABLE, code: "DEMO_UNAVAILABLE" }),
    });
    const { user } = renderApp("/ai-test");
    const quick = await screen.findByRole("group", { name: "Quick questions" });
    await user.click(within(quick).getByRole("button", { name: "Where is my order?" }));
    expect(await screen.findByRole("heading", { name: NO_DEMO_TITLE })).toBeInTheDocument();
    expect(screen.getByText(DEMO_UNAVAILABLE)).toBeInTheDocument();
  });
});
