import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getSession } from "../../../lib/session-storage.ts";
import { FakeWebSocket } from "../../../test/fake-websocket.ts";
import { calls, findOpenDialog, json, mockApi, renderApp } from "../../../test/render-app.tsx";
import {
  authOf,
  customerComment,
  customerTicket,
  listOf,
  openSurvey,
  organization,
  session,
  signedInPortal,
  ticketDetail,
} from "../test/portal-fixtures.ts";

const boots = customerTicket({ subject: "Exchange hiking boots", status: "open" });
const bag = customerTicket({ ticket_number: 19, subject: "Sleeping bag zipper", status: "solved", priority: "low" });

const signedInApi = (handlers: Parameters<typeof mockApi>[0] = {}) =>
  signedInPortal([boots, bag], {
    [`GET /api/portal/tickets/${boots.id}`]: () => json(200, { ticket: ticketDetail(boots) }),
    [`GET /api/portal/tickets/${bag.id}`]: () => json(200, { ticket: ticketDetail(bag, [], openSurvey) }),
    ...handlers,
  });

describe("the customer portal", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("asks a signed-out customer for their email and says a link was sent, without a staff session", async () => {
    const fetchMock = mockApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "POST /api/public/acme/portal/sign-in-link": () =>
        json(200, { message: "Check your inbox: we sent a sign-in link to sam@example.com." }),
    });
    const { user } = renderApp("/portal/acme");
    expect(await screen.findByRole("heading", { name: "Sign in to Acme Outdoor Co. support" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Email me a sign-in link" }));
    expect(await screen.findByText("Email is required")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email address"), "Sam@Example.com");
    await user.click(screen.getByRole("button", { name: "Email me a sign-in link" }));
    expect(await screen.findByText(/we sent a sign-in link to sam@example.com/)).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ email: "sam@example.com" });
    expect(authOf(fetchMock, "/api/public/acme/portal/sign-in-link")).toBeNull();
  });

  it("opens an emailed link: signs in, forgets the token in the address, and shows the customer's tickets", async () => {
    const fetchMock = signedInApi({ "POST /api/public/acme/portal/session": () => json(200, session) });
    localStorage.clear();
    const { router } = renderApp("/portal/acme?token=link-token-0123456789abcdef");
    expect(await screen.findByRole("heading", { name: "Hello, Sam Rivera" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
    const sent = fetchMock.mock.calls.find(([input]) => String(input).endsWith("/portal/session"));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ token: "link-token-0123456789abcdef" });
    // The portal's own storage; no staff session appears.
    expect(JSON.parse(localStorage.getItem("cove.portal.acme") ?? "{}").token).toBe(session.token);
    expect(getSession()).toBeNull();

    const banner = screen.getByRole("banner");
    expect(within(banner).getByText("Sam Rivera")).toBeInTheDocument();
    expect(within(banner).getByText("Rivera Trail Club")).toBeInTheDocument();
    for (const card of ["Submit Ticket", "Browse Help", "Live Chat"]) {
      expect(screen.getByRole("button", { name: new RegExp(card) })).toBeInTheDocument();
    }
    expect(await screen.findByRole("tab", { name: "My Tickets (2)" })).toHaveAttribute("aria-selected", "true");
    const list = screen.getByRole("list", { name: "My tickets" });
    expect(within(list).getByText("Exchange hiking boots")).toBeInTheDocument();
    expect(within(list).getByText("Solved")).toBeInTheDocument();
    expect(authOf(fetchMock, "/api/portal/tickets")).toBe(`Bearer ${session.token}`);
  });

  it("shows a bad link's message with the sign-in form", async () => {
    mockApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "POST /api/public/acme/portal/session": () =>
        json(400, { error: "This sign-in link is invalid, has expired or was already used.", code: "INVALID_TOKEN" }),
    });
    renderApp("/portal/acme?token=used-token-0123456789abcdef");
    expect(await screen.findByRole("alert")).toHaveTextContent("This sign-in link is invalid, has expired");
    expect(screen.getByLabelText("Email address")).toBeInTheDocument();
  });

  it("opens a ticket's public conversation, sends a reply, and shows the team's answer as it arrives", async () => {
    let detail = ticketDetail(boots);
    const fetchMock = signedInApi({
      [`GET /api/portal/tickets/${boots.id}`]: () => json(200, { ticket: detail }),
      [`POST /api/portal/tickets/${boots.id}/comments`]: (init) => {
        const body = JSON.parse(String(init?.body)).body as string;
        const mine = customerComment({ body, from_customer: true, author_name: "Sam Rivera" });
        detail = { ...detail, comments: [...detail.comments, mine] };
        return json(201, { comment: mine });
      },
    });
    const { user, router } = renderApp("/portal/acme");
    await user.click(await screen.findByRole("button", { name: /Exchange hiking boots/ }));
    expect(router.state.location.search).toBe(`?ticket=${boots.id}`);
    const conversation = await screen.findByRole("list", { name: "Conversation" });
    expect(within(conversation).getByText("They are a little tight.")).toBeInTheDocument();
    // The ticket's dates are items of their own: no separator left to start a line when the row wraps on a phone.
    expect(screen.getByText(/^Created /)).toBeInTheDocument();
    expect(screen.getByText(/^Updated /)).toBeInTheDocument();
    expect(within(conversation).getByText("We have reserved a pair for you.")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Your reply"), "Thanks, <b>size 43</b> please");
    await user.click(screen.getByRole("button", { name: "Send reply" }));
    expect(await within(conversation).findByText("Thanks, <b>size 43</b> please")).toBeInTheDocument();
    expect(conversation.querySelector("b")).toBeNull();
    expect(authOf(fetchMock, `/api/portal/tickets/${boots.id}/comments`)).toBe(`Bearer ${session.token}`);

    // The socket signs in with the customer's token and follows this ticket; the team's answer arrives live.
    const socket = FakeWebSocket.latest();
    act(() => socket.accept());
    expect(socket.sent[0]).toEqual({ type: "auth", token: session.token });
    act(() => socket.receive({ type: "ready" }));
    await waitFor(() => expect(socket.sent).toContainEqual({ type: "subscribe", topic: `ticket:${boots.id}` }));
    detail = { ...detail, comments: [...detail.comments, customerComment({ body: "Shipped today!" })] };
    act(() =>
      socket.receive({
        type: "event",
        topic: `ticket:${boots.id}`,
        event: {
          id: 9,
          type: "comment.added",
          actor: { kind: "staff", id: "x" },
          occurred_at: "2030-01-12T00:00:00.000Z",
          data: { ticket_id: boots.id, comment_id: "c", is_public: true },
        },
      }),
    );
    expect(await within(conversation).findByText("Shipped today!")).toBeInTheDocument();
    expect(calls(fetchMock).filter((c) => c === `GET /api/portal/tickets/${boots.id}`).length).toBeGreaterThan(1);
  });

  it("rates a solved ticket Good with a comment", async () => {
    const fetchMock = signedInApi({
      [`PUT /api/portal/tickets/${bag.id}/satisfaction`]: (init) =>
        json(200, { satisfaction: { ...openSurvey, ...JSON.parse(String(init?.body)) } }),
    });
    const { user } = renderApp(`/portal/acme?ticket=${bag.id}`);
    expect(
      await screen.findByRole("heading", { name: "How would you rate the support you received?" }),
    ).toBeInTheDocument();
    expect(screen.getByText("This ticket is solved: replying opens it again.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Good" }));
    expect(screen.getByRole("button", { name: "Good" })).toHaveAttribute("aria-pressed", "true");
    await user.type(screen.getByLabelText("Comment (optional)"), "Quick and kind");
    await user.click(screen.getByRole("button", { name: "Send rating" }));
    expect(await screen.findByText("Thank you for your feedback!")).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ rating: "good", comment: "Quick and kind" });
  });

  it("creates a ticket from the Create Support Ticket modal; subject and description are required", async () => {
    const created = customerTicket({ ticket_number: 21, subject: `<img src=x onerror=alert(1)>` });
    const fetchMock = signedInApi({
      "POST /api/portal/tickets": () => json(201, { ticket: ticketDetail(created, []) }),
      [`GET /api/portal/tickets/${created.id}`]: () => json(200, { ticket: ticketDetail(created, []) }),
    });
    const { user, router } = renderApp("/portal/acme");
    await user.click(await screen.findByRole("button", { name: /Submit Ticket/ }));
    const dialog = await findOpenDialog("dialog", { name: "Create Support Ticket" });
    await user.click(within(dialog).getByRole("button", { name: "Submit Ticket" }));
    expect(await within(dialog).findByText("Subject is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Description is required")).toBeInTheDocument();
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);

    await user.type(within(dialog).getByLabelText("Subject"), "<img src=x onerror=alert(1)>");
    await user.type(within(dialog).getByLabelText("Description"), "It broke.");
    await user.selectOptions(within(dialog).getByLabelText("Priority"), "high");
    await user.click(within(dialog).getByRole("button", { name: "Submit Ticket" }));
    await waitFor(() => expect(router.state.location.search).toBe(`?ticket=${created.id}`));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([, i]) => i?.method === "POST")?.[1]?.body));
    expect(body).toEqual({ subject: "<img src=x onerror=alert(1)>", description: "It broke.", priority: "high" });
    expect(await screen.findByRole("heading", { name: /#21 <img src=x onerror=alert\(1\)>/ })).toBeInTheDocument();
    expect(document.querySelector("img[src=x]")).toBeNull();
  });

  it("searches the organization's help articles in the knowledge-base tab", async () => {
    const fetchMock = signedInApi({
      "GET /api/public/acme/kb": () =>
        json(200, {
          organization: { name: organization.name, slug: "acme" },
          categories: [
            {
              id: "00000000-0000-4000-9000-000000000001",
              name: "Shipping",
              slug: "shipping",
              articles: [{ id: "00000000-0000-4000-9000-000000000002", title: "Do you ship abroad?", slug: "abroad" }],
            },
          ],
          uncategorized: [],
        }),
      "GET /api/public/acme/kb/search": () =>
        json(200, {
          results: [
            {
              id: "00000000-0000-4000-9000-000000000003",
              title: "Returns",
              slug: "returns",
              category_name: null,
              excerpt: "Within 30 days.",
            },
          ],
        }),
    });
    const { user } = renderApp("/portal/acme");
    await user.click(await screen.findByRole("button", { name: /Browse Help/ }));
    expect(await screen.findByRole("link", { name: "Do you ship abroad?" })).toHaveAttribute(
      "href",
      "/help/acme/articles/abroad",
    );
    await user.type(screen.getByRole("searchbox"), "return");
    expect(await screen.findByText("Within 30 days.")).toBeInTheDocument();
    expect(calls(fetchMock)).toContain("GET /api/public/acme/kb/search?q=return");
  });

  it("says live chat is not available when the server has no chat widget, and offers Start Chat when it has", async () => {
    signedInApi({
      "HEAD /widget.js": () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }),
    });
    const first = renderApp("/portal/acme?tab=chat");
    expect(await screen.findByText("Live chat is not available yet.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Start Chat" })).not.toBeInTheDocument();
    first.unmount();

    signedInApi({
      "HEAD /widget.js": () => new Response("", { headers: { "Content-Type": "text/javascript; charset=utf-8" } }),
    });
    renderApp("/portal/acme?tab=chat");
    expect(await screen.findByRole("button", { name: "Start Chat" })).toBeInTheDocument();
  });

  it("goes back to the sign-in form when the session has ended, and signs out on request", async () => {
    const fetchMock = signedInApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "POST /api/portal/sign-out": () => json(200, { message: "Signed out" }),
    });
    const { user } = renderApp("/portal/acme");
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Sign in to Acme Outdoor Co. support" })).toBeInTheDocument();
    expect(localStorage.getItem("cove.portal.acme")).toBeNull();
    expect(calls(fetchMock)).toContain("POST /api/portal/sign-out");

    signedInApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "GET /api/portal/tickets": () =>
        json(401, { error: "Your session has ended. Please sign in again.", code: "UNAUTHORIZED" }),
    });
    renderApp("/portal/acme");
    expect(await screen.findAllByRole("heading", { name: "Sign in to Acme Outdoor Co. support" })).not.toHaveLength(0);
  });
});

describe("the demo customer portal", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("signs in as the demo customer, says it is a demo, and has no sign-out", async () => {
    const demo = { ...session, token: "ct.demo-token-0123456789" };
    mockApi({
      "POST /api/portal/demo-session": () => json(200, demo),
      "GET /api/portal/me": () => json(200, { customer: demo.customer, organization }),
      "GET /api/portal/tickets": () => json(200, listOf([boots])),
    });
    renderApp("/customer-portal");
    expect(await screen.findByRole("complementary", { name: "About this demo" })).toHaveTextContent(
      "Demo customer portal",
    );
    expect(await screen.findByRole("tab", { name: "My Tickets (1)" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign out" })).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem("cove.portal-demo") ?? "{}").token).toBe(demo.token);
  });

  it("says plainly when the server has no demo organization", async () => {
    mockApi({
      "POST /api/portal/demo-session": () =>
        json(404, { error: "The demo customer portal is not set up on this server.", code: "NOT_FOUND" }),
    });
    renderApp("/customer-portal");
    expect(await screen.findByText(/The demo customer portal is not set up on this server/)).toBeInTheDocument();
  });
});
