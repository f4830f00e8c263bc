import type { Ticket } from "@cove/contract/tickets.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { FakeWebSocket } from "../../../test/fake-websocket.ts";
import { calls, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { agent, comment, me, ticket } from "../test/ticket-fixtures.ts";

const alan = agent({ first_name: "Alan", last_name: "Turing" });

function signedIn(current: Ticket, handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/users": () => json(200, { users: [me, alan] }),
    [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
    ...handlers,
  });
}

function sentBody(fetchMock: ReturnType<typeof mockApi>, method: string): unknown {
  const call = fetchMock.mock.calls.findLast(([, init]) => init?.method === method);
  return JSON.parse(String(call?.[1]?.body));
}

describe("ticket detail", () => {
  it("shows the header, requester, description with its line breaks, and the comments", async () => {
    const current = ticket({
      ticket_number: 7,
      subject: "Wrong size <b>helmet</b>",
      description: "First line\nSecond line",
      comments: [
        comment({ body: "We will send a new one.", author_name: "Alan Turing" }),
        comment({ body: "Check the warehouse stock first.", is_public: false, author_name: "Ada Lovelace" }),
      ],
    });
    signedIn(current);
    renderApp(`/tickets/${current.id}`);

    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("#7 Wrong size <b>helmet</b>");
    expect(screen.getByText("grace@example.com")).toBeInTheDocument();
    const description = screen.getByRole("article", { name: "Description" });
    expect(within(description).getByText(/First line/)).toHaveClass("whitespace-pre-wrap");
    expect(within(description).getByText(/First line/).textContent).toBe("First line\nSecond line");

    const reply = screen.getByRole("article", { name: "Reply from Alan Turing" });
    expect(within(reply).queryByText("Internal")).not.toBeInTheDocument();
    const note = screen.getByRole("article", { name: "Internal note from Ada Lovelace" });
    expect(within(note).getByText("Internal")).toBeInTheDocument();
    expect(within(note).getByText("Check the warehouse stock first.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to List" })).toHaveAttribute("href", "/tickets");
  });

  it("shows the customer's rating, Good or Bad with their comment, and nothing before they rate", async () => {
    const bad = ticket({
      status: "solved",
      rating: { rating: "bad", comment: "Took a week to answer.", rated_at: "2030-01-12T10:00:00.000Z" },
    });
    signedIn(bad);
    const view = renderApp(`/tickets/${bad.id}`);
    const panel = await screen.findByRole("region", { name: "Customer rating" });
    expect(within(panel).getByText("Bad")).toBeInTheDocument();
    expect(within(panel).getByText("Took a week to answer.")).toBeInTheDocument();
    expect(
      within(panel)
        .getByText(/^Rated/)
        .querySelector("time"),
    ).toHaveAttribute("dateTime", "2030-01-12T10:00:00.000Z");
    view.unmount();

    const good = ticket({ status: "solved", rating: { rating: "good", comment: null, rated_at: bad.updated_at } });
    signedIn(good);
    const second = renderApp(`/tickets/${good.id}`);
    const goodPanel = await screen.findByRole("region", { name: "Customer rating" });
    expect(within(goodPanel).getByText("Good")).toBeInTheDocument();
    expect(within(goodPanel).queryByRole("blockquote")).not.toBeInTheDocument();
    second.unmount();

    const unrated = ticket({ status: "solved", rating: null });
    signedIn(unrated);
    renderApp(`/tickets/${unrated.id}`);
    await screen.findByRole("region", { name: "Details" });
    expect(screen.queryByRole("region", { name: "Customer rating" })).not.toBeInTheDocument();
  });

  it("does not send a blank reply", async () => {
    const current = ticket();
    const fetchMock = signedIn(current);
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.click(await screen.findByRole("button", { name: "Reply" }));
    expect(screen.getByLabelText("Public reply")).toBeChecked();
    await user.type(screen.getByRole("textbox", { name: "Reply" }), "   \n  ");
    await user.click(screen.getByRole("button", { name: "Send Reply" }));

    expect(await screen.findByText("Reply is required")).toBeInTheDocument();
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);
  });

  it("sends an internal note and shows it at once with the Internal badge", async () => {
    const current = ticket();
    const fetchMock = signedIn(current, {
      [`POST /api/tickets/${current.id}/comments`]: (init) => {
        const body = JSON.parse(String(init?.body)) as { body: string; is_public: boolean };
        return json(201, { comment: comment({ body: body.body, is_public: body.is_public }) });
      },
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.click(await screen.findByRole("button", { name: "Reply" }));
    await user.type(screen.getByRole("textbox", { name: "Reply" }), "Customer is a VIP.\nBe quick.");
    await user.click(screen.getByLabelText("Public reply"));
    await user.click(screen.getByRole("button", { name: "Send Reply" }));

    const note = await screen.findByRole("article", { name: "Internal note from Ada Lovelace" });
    expect(within(note).getByText("Internal")).toBeInTheDocument();
    expect(sentBody(fetchMock, "POST")).toEqual({ body: "Customer is a VIP.\nBe quick.", is_public: false });
    expect(screen.queryByRole("form", { name: "Send a reply" })).not.toBeInTheDocument();
  });

  it("keeps the text and says so when a reply cannot be added", async () => {
    const current = ticket();
    signedIn(current, {
      [`POST /api/tickets/${current.id}/comments`]: () => json(500, { error: "Database down", code: "INTERNAL_ERROR" }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.click(await screen.findByRole("button", { name: "Reply" }));
    await user.type(screen.getByRole("textbox", { name: "Reply" }), "On its way");
    await user.click(screen.getByRole("button", { name: "Send Reply" }));

    expect(await screen.findByText("Failed to add comment. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Reply" })).toHaveValue("On its way");
  });

  it("saves a new status at once and puts the old one back when the server refuses", async () => {
    const current = ticket({ status: "open" });
    const fetchMock = signedIn(current, {
      [`PUT /api/tickets/${current.id}`]: () => json(500, { error: "Database down", code: "INTERNAL_ERROR" }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    const status = await screen.findByLabelText("Status");
    await user.selectOptions(status, "Pending");

    expect(await screen.findByText("Failed to update ticket. Please try again.")).toBeInTheDocument();
    expect(sentBody(fetchMock, "PUT")).toEqual({ status: "pending" });
    await waitFor(() => expect(status).toHaveValue("open"));
  });

  it("shows the saved priority and the server's activity line", async () => {
    const current = ticket({ priority: "normal" });
    signedIn(current, {
      [`PUT /api/tickets/${current.id}`]: () =>
        json(200, {
          ticket: {
            ...current,
            priority: "urgent",
            activity: [
              {
                id: "00000000-0000-4000-8000-00000000abcd",
                type: "priority",
                actor_name: "Ada Lovelace",
                from_value: "normal",
                to_value: "urgent",
                created_at: "2026-03-02T12:00:00.000Z",
              },
            ],
          },
        }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.selectOptions(await screen.findByLabelText("Priority"), "Urgent");

    expect(await screen.findByText("Ada Lovelace changed priority from Normal to Urgent")).toBeInTheDocument();
    expect(screen.getByLabelText("Priority")).toHaveValue("urgent");
  });

  it("assigns the ticket to the signed-in agent", async () => {
    const current = ticket();
    const fetchMock = signedIn(current, {
      [`PUT /api/tickets/${current.id}`]: () =>
        json(200, {
          ticket: { ...current, assignee_id: me.id, assignee_first_name: "Ada", assignee_last_name: "Lovelace" },
        }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    const assignee = await screen.findByLabelText("Assignee");
    await waitFor(() => expect(within(assignee).getAllByRole("option")).toHaveLength(3));
    await user.click(screen.getByRole("button", { name: "Assign to me" }));

    await waitFor(() => expect(assignee).toHaveValue(me.id));
    expect(sentBody(fetchMock, "PUT")).toEqual({ assignee_id: testUser.id });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Assign to me" })).not.toBeInTheDocument());
  });

  it("adds and removes tags", async () => {
    const current = ticket({ tags: ["billing"] });
    const fetchMock = signedIn(current, {
      [`PUT /api/tickets/${current.id}`]: (init) => {
        const body = JSON.parse(String(init?.body)) as { tags: string[] };
        return json(200, { ticket: { ...current, tags: body.tags } });
      },
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.type(await screen.findByLabelText("Tags"), "Refund{Enter}");
    expect(await screen.findByRole("button", { name: "Remove tag refund" })).toBeInTheDocument();
    expect(sentBody(fetchMock, "PUT")).toEqual({ tags: ["billing", "refund"] });

    await user.click(screen.getByRole("button", { name: "Remove tag billing" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Remove tag billing" })).not.toBeInTheDocument());
    expect(sentBody(fetchMock, "PUT")).toEqual({ tags: ["refund"] });
  });

  it("says Ticket not found, with a way back to the list", async () => {
    const missing = "00000000-0000-4000-8000-0000000fffff";
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      [`GET /api/tickets/${missing}`]: () => json(404, { error: "Ticket not found", code: "NOT_FOUND" }),
    });
    renderApp(`/tickets/${missing}`);

    expect(await screen.findByRole("heading", { name: "Ticket not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Tickets" })).toHaveAttribute("href", "/tickets");
  });

  it("says Error loading ticket with the message when the server fails", async () => {
    const current = ticket();
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      [`GET /api/tickets/${current.id}`]: () => json(503, { error: "Service unavailable", code: "INTERNAL_ERROR" }),
    });
    renderApp(`/tickets/${current.id}`);

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Error loading ticket");
    expect(alert).toHaveTextContent("Service unavailable");
  });

  it("changes live when a teammate changes the ticket, and shows who else is on it and who is replying", async () => {
    let current = ticket({ status: "open" });
    signedIn(current, { [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }) });
    const { user } = renderApp(`/tickets/${current.id}`);
    await screen.findByRole("heading", { level: 1 });
    const socket = FakeWebSocket.instances.find((s) => s.url.endsWith("/api/realtime"));
    if (!socket) throw new Error("no realtime socket");
    act(() => {
      socket.accept();
      socket.receive({ type: "ready", actor: { kind: "staff", id: testUser.id } });
    });
    const topic = `ticket:${current.id}`;
    await waitFor(() => expect(socket.sent).toContainEqual({ type: "subscribe", topic }));

    act(() =>
      socket.receive({
        type: "presence",
        topic,
        viewers: [{ user_id: alan.id, name: "Alan Turing", avatar_url: null, typing: true }],
      }),
    );
    expect(within(screen.getByRole("list", { name: "Also viewing" })).getByText("Alan Turing")).toBeInTheDocument();
    expect(screen.getByText("Alan is replying…")).toBeInTheDocument();

    current = { ...current, status: "pending" };
    act(() =>
      socket.receive({
        type: "event",
        topic,
        event: {
          id: 7,
          type: "ticket.status_changed",
          actor: { kind: "staff", id: alan.id },
          occurred_at: new Date().toISOString(),
          data: { ticket_id: current.id, from: "open", to: "pending" },
        },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText("Status")).toHaveValue("pending"));

    // Typing a reply tells the others.
    await user.click(screen.getByRole("button", { name: "Reply" }));
    await user.type(screen.getByRole("textbox", { name: "Reply" }), "On it");
    expect(socket.sent).toContainEqual({ type: "typing", topic });

    act(() => socket.receive({ type: "presence", topic, viewers: [] }));
    expect(screen.queryByRole("list", { name: "Also viewing" })).toBeNull();
  });
});
