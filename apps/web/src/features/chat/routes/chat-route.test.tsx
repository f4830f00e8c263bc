import type { ChatMessage, ChatSession, ChatStatsAnswer } from "@cove/contract/chat.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { FakeWebSocket } from "../../../test/fake-websocket.ts";
import { calls, findOpenDialog, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { articleSummary } from "../../kb/test/kb-fixtures.ts";
import { CONNECTION_BANNER } from "./chat-route.tsx";

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`;

function session(overrides: Partial<ChatSession> = {}): ChatSession {
  return {
    id: uuid(),
    visitor_name: "Lee Park",
    visitor_email: "lee@example.com",
    status: "active",
    started_at: new Date(Date.now() - 600_000).toISOString(),
    ended_at: null,
    last_message: "Where is my order?",
    last_message_at: new Date().toISOString(),
    waiting_for_human: false,
    waiting_since: null,
    assigned_agent: null,
    handed_off: false,
    resolved_by_ai: false,
    ticket_id: null,
    ...overrides,
  };
}

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: uuid(),
    sender_type: "visitor",
    sender_name: null,
    message: "Hello",
    sources: [],
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

const stats: ChatStatsAnswer = {
  active_chats: 2,
  closed_today: 3,
  avg_response_seconds: 95,
  total_sessions: 12,
  resolved_by_ai: 4,
  handed_off: 5,
};

function signedIn(sessions: ChatSession[], handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/chat/sessions": () => json(200, { sessions }),
    "GET /api/chat/stats": () => json(200, stats),
    ...handlers,
  });
}

describe("/chat", () => {
  it("shows the four figures, the sessions with the active count, and a waiting session's wait", async () => {
    const waiting = session({
      visitor_name: "Sam <b>Rivera</b>",
      waiting_for_human: true,
      waiting_since: new Date(Date.now() - 5 * 60_000).toISOString(),
    });
    const closed = session({ visitor_name: "Kim", status: "closed" });
    signedIn([waiting, session(), closed]);
    renderApp("/chat");

    expect(await screen.findByRole("heading", { name: "Live Chat", level: 1 })).toBeInTheDocument();
    // The labels render at once; the figures follow when the stats arrive.
    await waitFor(() => expect(screen.getByText("Avg Response").nextElementSibling).toHaveTextContent("1m"));
    await waitFor(() => expect(screen.getByText("Total Sessions").nextElementSibling).toHaveTextContent("12"));
    expect(screen.getByText("Active Chats").nextElementSibling).toHaveTextContent("2");
    expect(screen.getByText("Closed Today").nextElementSibling).toHaveTextContent("3");
    const list = screen.getByRole("region", { name: "Chat sessions" });
    expect(within(list).getByText("(2 active)")).toBeInTheDocument();
    // Names are text, never markup.
    expect(within(list).getByText("Sam <b>Rivera</b>")).toBeInTheDocument();
    expect(within(list).getByText("Waiting for a person · 5m")).toBeInTheDocument();
  });

  it("opens a conversation: agent on the right, visitor, assistant (with its source) and notices told apart", async () => {
    const current = session();
    signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () =>
        json(200, {
          messages: [
            message({ sender_type: "ai", message: "Hi! Ask me anything." }),
            message({ sender_type: "visitor", message: "<img src=x onerror=alert(1)>" }),
            message({
              sender_type: "ai",
              message: "Refunds take 5 days.",
              sources: [{ id: uuid(), title: "Returns", url: "/help/acme/articles/returns" }],
            }),
            message({ sender_type: "system", message: "A person from our team will reply here shortly." }),
            message({ sender_type: "agent", sender_name: "Ada", message: "Hi, Ada here." }),
          ],
        }),
    });
    const { user } = renderApp("/chat");
    await user.click(await screen.findByRole("button", { name: /Lee Park/ }));

    const conversation = await screen.findByRole("region", { name: "Chat with Lee Park" });
    const fromVisitor = await within(conversation).findByRole("article", { name: "Message from Lee Park" });
    expect(fromVisitor).toHaveTextContent("<img src=x onerror=alert(1)>");
    expect(fromVisitor.querySelector("img")).toBeNull();
    expect(fromVisitor.parentElement).toHaveClass("justify-start");
    const fromAgent = within(conversation).getByRole("article", { name: "Message from Ada" });
    expect(fromAgent.parentElement).toHaveClass("justify-end");
    const answers = within(conversation).getAllByRole("article", { name: "Message from AI assistant" });
    expect(answers).toHaveLength(2);
    expect(within(answers[1] as HTMLElement).getByRole("link", { name: "Returns" })).toHaveAttribute(
      "href",
      "/help/acme/articles/returns",
    );
    expect(within(conversation).getByLabelText("Notice")).toHaveTextContent(
      "A person from our team will reply here shortly.",
    );
  });

  it("renders the assistant's Markdown (list, table, link) safely; people's messages stay as they typed them", async () => {
    const current = session();
    const xss = '[click](javascript:alert(1)) <img src=x onerror=alert(1)> <script>alert("x")</script>';
    signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () =>
        json(200, {
          messages: [
            message({ sender_type: "visitor", message: "1. first\n2. **second**" }),
            message({
              sender_type: "ai",
              message: `To start a return:\n1. Open **Orders**.\n2. See [returns](https://shop.example/returns).\n\n| Option | Cost |\n|---|---|\n| Standard | $5 |\n\n${xss}`,
            }),
            message({ sender_type: "agent", sender_name: "Ada", message: "- not a list\n[x](https://a.example)" }),
          ],
        }),
    });
    const { user } = renderApp("/chat");
    await user.click(await screen.findByRole("button", { name: /Lee Park/ }));
    const conversation = await screen.findByRole("region", { name: "Chat with Lee Park" });

    const answer = await within(conversation).findByRole("article", { name: "Message from AI assistant" });
    expect(
      within(answer)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Open Orders.", "See returns."]);
    expect(within(answer).getByText("Orders").tagName).toBe("STRONG");
    const link = within(answer).getByRole("link", { name: "returns" });
    expect(link).toHaveAttribute("href", "https://shop.example/returns");
    expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
    expect(link).toHaveAttribute("target", "_blank");
    expect(within(answer).getByRole("cell", { name: "$5" })).toBeInTheDocument();
    // Nothing of the payload runs or loads, and all of its text is still there to read.
    expect(answer.querySelector("script, img, [onerror]")).toBeNull();
    expect(answer.querySelector('a[href^="javascript"]')).toBeNull();
    expect(answer).toHaveTextContent(
      '[click](javascript:alert(1)) <img src=x onerror=alert(1)> <script>alert("x")</script>',
    );

    const fromVisitor = within(conversation).getByRole("article", { name: "Message from Lee Park" });
    expect(within(fromVisitor).queryByRole("list")).toBeNull();
    expect(fromVisitor).toHaveTextContent("1. first 2. **second**");
    const fromAgent = within(conversation).getByRole("article", { name: "Message from Ada" });
    expect(within(fromAgent).queryByRole("link")).toBeNull();
    expect(fromAgent).toHaveTextContent("- not a list [x](https://a.example)");
  });

  it("sends the message trimmed, and never a blank one", async () => {
    const current = session();
    const fetchMock = signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }),
      [`POST /api/chat/sessions/${current.id}/messages`]: (init) => {
        const body = JSON.parse(String(init?.body)) as { message: string };
        return json(201, { message: message({ sender_type: "agent", sender_name: "Ada", message: body.message }) });
      },
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    const box = await screen.findByRole("textbox", { name: "Message" });
    await user.type(box, "    ");
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    await user.type(box, "{Enter}");
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);

    await user.clear(box);
    await user.type(box, "  On my way  {Enter}");
    expect(await screen.findByRole("article", { name: "Message from Ada" })).toHaveTextContent("On my way");
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ message: "On my way" });
    expect(box).toHaveValue("");
  });

  it("says the spec's words when sending fails", async () => {
    const current = session();
    signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }),
      [`POST /api/chat/sessions/${current.id}/messages`]: () => json(500, { error: "boom", code: "INTERNAL_ERROR" }),
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    await user.type(await screen.findByRole("textbox", { name: "Message" }), "Hello{Enter}");
    expect(await screen.findByText("Failed to send message - backend connection issue")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("Hello");
  });

  it("closes an active session after the confirmation, then clears the selection", async () => {
    const current = session();
    const fetchMock = signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }),
      [`PUT /api/chat/sessions/${current.id}`]: () =>
        json(200, { message: "Chat session closed successfully.", session: { ...current, status: "closed" } }),
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    await user.click(await screen.findByRole("button", { name: "Close" }));
    const dialog = await findOpenDialog("alertdialog");
    expect(dialog).toHaveTextContent("Are you sure you want to close this chat session?");
    await user.click(within(dialog).getByRole("button", { name: "Close session" }));

    expect(await screen.findByText("Chat session closed successfully.")).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ status: "closed" });
    await waitFor(() => expect(screen.queryByRole("region", { name: "Chat with Lee Park" })).not.toBeInTheDocument());
    expect(screen.getByText("Select a session to see the conversation.")).toBeInTheDocument();
  });

  it("a closed session has no send box and no Close", async () => {
    const current = session({ status: "closed" });
    signedIn([current], { [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }) });
    renderApp(`/chat?session=${current.id}`);
    const conversation = await screen.findByRole("region", { name: "Chat with Lee Park" });
    expect(within(conversation).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(conversation).queryByRole("button", { name: "Close" })).not.toBeInTheDocument();
  });

  it("takes a session", async () => {
    const current = session();
    const fetchMock = signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }),
      [`POST /api/chat/sessions/${current.id}/take`]: () =>
        json(200, { session: { ...current, assigned_agent: { id: testUser.id, name: "Ada Lovelace" } } }),
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    await user.click(await screen.findByRole("button", { name: "Take" }));
    await waitFor(() => expect(calls(fetchMock)).toContain(`POST /api/chat/sessions/${current.id}/take`));
  });

  it("creates a ticket from the conversation", async () => {
    const current = session();
    const ticketId = uuid();
    const fetchMock = signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }),
      [`POST /api/chat/sessions/${current.id}/ticket`]: () =>
        json(201, {
          ticket_id: ticketId,
          ticket_number: 42,
          session: { ...current, status: "transferred", ticket_id: ticketId },
        }),
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    await user.click(await screen.findByRole("button", { name: "Create ticket" }));
    expect(await screen.findByText("Ticket #42 created from this chat")).toBeInTheDocument();
    expect(calls(fetchMock)).toContain(`POST /api/chat/sessions/${current.id}/ticket`);
  });

  it("a transferred session links to its ticket", async () => {
    const ticketId = uuid();
    const current = session({ status: "transferred", ticket_id: ticketId });
    signedIn([current], { [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }) });
    renderApp(`/chat?session=${current.id}`);
    expect(await screen.findByRole("link", { name: "Open ticket" })).toHaveAttribute("href", `/tickets/${ticketId}`);
    expect(screen.queryByRole("button", { name: "Create ticket" })).not.toBeInTheDocument();
  });

  it("shows the visitor typing, and tells the visitor when the agent types", async () => {
    const current = session();
    signedIn([current], { [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [] }) });
    const { user } = renderApp(`/chat?session=${current.id}`);
    const box = await screen.findByRole("textbox", { name: "Message" });
    const socket = FakeWebSocket.instances.find((s) => s.url.endsWith("/api/realtime"));
    if (!socket) throw new Error("no realtime socket");
    act(() => {
      socket.accept();
      socket.receive({ type: "ready", actor: { kind: "staff", id: testUser.id } });
    });
    const topic = `chat_session:${current.id}`;
    await waitFor(() => expect(socket.sent).toContainEqual({ type: "subscribe", topic }));
    act(() =>
      socket.receive({
        type: "presence",
        topic,
        viewers: [{ user_id: uuid(), name: "Lee Park", avatar_url: null, typing: true }],
      }),
    );
    expect(await screen.findByText("Lee Park is typing…")).toBeInTheDocument();
    await user.type(box, "Hi");
    await waitFor(() => expect(socket.sent).toContainEqual({ type: "typing", topic }));
  });

  it("shows the connection banner and an empty list when a fetch fails", async () => {
    signedIn([], { "GET /api/chat/sessions": () => json(500, { error: "down", code: "INTERNAL_ERROR" }) });
    renderApp("/chat");
    expect(await screen.findByText(CONNECTION_BANNER)).toBeInTheDocument();
    expect(screen.getByText("No chat sessions yet.")).toBeInTheDocument();
  });

  it("a new session arrives live: the list is fetched again when the team's chat topic reports it", async () => {
    const first = session({ visitor_name: "First" });
    let list = [first];
    signedIn([], { "GET /api/chat/sessions": () => json(200, { sessions: list }) });
    renderApp("/chat");
    expect(await screen.findByText("First")).toBeInTheDocument();
    const socket = FakeWebSocket.instances.find((s) => s.url.endsWith("/api/realtime"));
    if (!socket) throw new Error("no realtime socket");
    act(() => {
      socket.accept();
      socket.receive({ type: "ready", actor: { kind: "staff", id: testUser.id } });
    });
    await waitFor(() => expect(socket.sent).toContainEqual({ type: "subscribe", topic: "chat" }));
    const second = session({ visitor_name: "Second" });
    list = [second, first];
    act(() =>
      socket.receive({
        type: "event",
        topic: "chat",
        event: {
          id: 1,
          type: "chat.session_started",
          actor: { kind: "system", id: "chat" },
          occurred_at: new Date().toISOString(),
          data: { session_id: second.id },
        },
      }),
    );
    expect(await screen.findByText("Second")).toBeInTheDocument();
  });
});

describe("Wrong answer", () => {
  const RETURNS = "4f1c2b7e-7c1d-4a0e-9d8f-2b3c4d5e6f70";
  const SHIPPING = "7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a";
  const article = (id: string, title: string) =>
    articleSummary({ id, title, slug: title.toLowerCase().replaceAll(" ", "-") });
  const ARTICLES = [article(RETURNS, "Sending something back"), article(SHIPPING, "International shipping")];

  /**
   * A chat with a greeting (not an answer) and one answer the assistant logged (it carries feedback); the article list
   * answers the titles containing what was searched for; `answerMark` answers the mark, given its body.
   */
  function chatWithAnswer(answerMark: (body: unknown) => Response, markedWrong = false) {
    const current = session();
    const answer = message({
      sender_type: "ai",
      message: "Orders ship in 2 days.",
      feedback: null,
      marked_wrong: markedWrong,
    });
    const fetchMock = signedIn([current], {
      [`GET /api/chat/sessions/${current.id}/messages`]: () =>
        json(200, {
          messages: [
            message({ sender_type: "ai", message: "Hi! Ask me anything." }),
            message({ sender_type: "visitor", message: "can i send the jumper back" }),
            answer,
          ],
        }),
      "GET /api/kb/articles": () => {
        // The call being answered is the last one made.
        const url = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), "http://localhost");
        expect(url.searchParams.get("status")).toBe("published");
        const search = (url.searchParams.get("search") ?? "").toLowerCase();
        const found = ARTICLES.filter((a) => a.title.toLowerCase().includes(search));
        return json(200, {
          articles: found,
          pagination: { page: 1, limit: 20, total: found.length, pages: 1, next_cursor: null },
        });
      },
      [`POST /api/chat/sessions/${current.id}/messages/${answer.id}/wrong-answer`]: (init) =>
        answerMark(JSON.parse(String(init?.body))),
    });
    return { current, fetchMock };
  }

  async function openDialog(sessionId: string) {
    const { user } = renderApp(`/chat?session=${sessionId}`);
    const conversation = await screen.findByRole("region", { name: "Chat with Lee Park" });
    const answers = await within(conversation).findAllByRole("article", { name: "Message from AI assistant" });
    // Only the logged answer can be marked, not the greeting.
    expect(within(answers[0] as HTMLElement).queryByRole("button", { name: "Wrong answer" })).not.toBeInTheDocument();
    const answer = answers[1] as HTMLElement;
    await user.click(within(answer).getByRole("button", { name: "Wrong answer" }));
    const dialog = await findOpenDialog("dialog", { name: "Wrong answer" });
    return { user, answer, dialog };
  }

  it("lets the agent pick the right article from a search: the question is suggested for it", async () => {
    const bodies: unknown[] = [];
    const said =
      'Marked wrong. "can i send the jumper back" is suggested as an example question of "Sending something back": an administrator adds it on the AI Assistant page.';
    const { current, fetchMock } = chatWithAnswer((body) => {
      bodies.push(body);
      return json(200, { message: said });
    });
    const { user, answer, dialog } = await openDialog(current.id);
    expect(await within(dialog).findByRole("radio", { name: "International shipping" })).toBeInTheDocument();
    const use = within(dialog).getByRole("button", { name: "Use this article" });
    expect(use).toBeDisabled();
    await user.type(within(dialog).getByRole("searchbox", { name: "Search your published articles" }), "back");
    await waitFor(() =>
      expect(within(dialog).queryByRole("radio", { name: "International shipping" })).not.toBeInTheDocument(),
    );
    expect(calls(fetchMock)).toContain("GET /api/kb/articles?page=1&limit=20&search=back&status=published");
    await user.click(within(dialog).getByRole("radio", { name: "Sending something back" }));
    await user.click(use);
    expect(await screen.findByText(said)).toBeInTheDocument();
    expect(bodies).toEqual([{ article_id: RETURNS }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(within(answer).getByText("Marked as a wrong answer")).toBeInTheDocument();
    expect(within(answer).queryByRole("button", { name: "Wrong answer" })).not.toBeInTheDocument();
  });

  it("says when no article covers the question, and shows why a mark was refused", async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    const { current } = chatWithAnswer((body) => {
      bodies.push(body);
      if (refuse) return json(404, { error: "Answer not found", code: "NOT_FOUND" });
      return json(200, { message: "Marked wrong, and as a question no article covers." });
    });
    const { user, answer, dialog } = await openDialog(current.id);
    await user.click(within(dialog).getByRole("button", { name: "Not covered by any article" }));
    expect(await screen.findByText("Answer not found")).toBeInTheDocument();
    // Refused: the dialog stays, to try again.
    expect(screen.getByRole("dialog", { name: "Wrong answer" })).toBeInTheDocument();
    refuse = false;
    await user.click(within(dialog).getByRole("button", { name: "Not covered by any article" }));
    expect(await screen.findByText("Marked wrong, and as a question no article covers.")).toBeInTheDocument();
    expect(bodies).toEqual([{ not_covered: true }, { not_covered: true }]);
    expect(await within(answer).findByText("Marked as a wrong answer")).toBeInTheDocument();
  });

  it("an answer marked wrong before (by this agent or another) says so, instead of offering the mark again", async () => {
    const { current } = chatWithAnswer(() => json(500, {}), true);
    renderApp(`/chat?session=${current.id}`);
    const conversation = await screen.findByRole("region", { name: "Chat with Lee Park" });
    const answers = await within(conversation).findAllByRole("article", { name: "Message from AI assistant" });
    const answer = answers[1] as HTMLElement;
    expect(await within(answer).findByText("Marked as a wrong answer")).toBeInTheDocument();
    expect(within(answer).queryByRole("button", { name: "Wrong answer" })).not.toBeInTheDocument();
  });
});
