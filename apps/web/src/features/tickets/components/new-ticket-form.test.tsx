import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../../../test/fake-xhr.ts";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { ticket } from "../test/ticket-fixtures.ts";

function signedIn(handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession();
  return mockApi({ "GET /api/auth/me": () => json(200, { user: testUser }), ...handlers });
}

describe("new ticket form", () => {
  it("requires every field and a valid email before calling the API", async () => {
    const fetchMock = signedIn();
    const { user } = renderApp("/tickets/new");

    await user.click(await screen.findByRole("button", { name: "Create Ticket" }));

    expect(await screen.findByText("Requester name is required")).toBeInTheDocument();
    expect(screen.getByText("Requester email is required")).toBeInTheDocument();
    expect(screen.getByText("Subject is required")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Subject")).toHaveAttribute("aria-invalid", "true");

    await user.type(screen.getByLabelText("Requester Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Create Ticket" }));
    expect(await screen.findByText("Enter a valid requester email address")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("creates the ticket with priority normal by default and opens it", async () => {
    const created = ticket({ ticket_number: 314, subject: "Pedal squeaks" });
    const fetchMock = signedIn({
      "POST /api/tickets": () => json(201, { ticket: created }),
      [`GET /api/tickets/${created.id}`]: () => json(200, { ticket: created }),
      "GET /api/users": () => json(200, { users: [] }),
    });
    const { user, router } = renderApp("/tickets/new");

    expect(await screen.findByLabelText("Priority")).toHaveValue("normal");
    await user.type(screen.getByLabelText("Requester Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Requester Email"), "Grace@Example.com");
    await user.type(screen.getByLabelText("Subject"), "Pedal squeaks");
    await user.type(screen.getByLabelText("Description"), "Left pedal.\nSince Monday.");
    await user.click(screen.getByRole("button", { name: "Create Ticket" }));

    expect(await screen.findByRole("heading", { level: 1, name: "#314 Pedal squeaks" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/tickets/${created.id}`);
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      requester_name: "Grace Hopper",
      requester_email: "grace@example.com",
      subject: "Pedal squeaks",
      description: "Left pedal.\nSince Monday.",
      priority: "normal",
      tags: [],
    });
  });

  it("says why the ticket could not be created", async () => {
    signedIn({
      "POST /api/tickets": () => json(403, { error: "Your trial has ended", code: "FORBIDDEN" }),
    });
    const { user, router } = renderApp("/tickets/new");

    await user.type(await screen.findByLabelText("Requester Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Requester Email"), "grace@example.com");
    await user.type(screen.getByLabelText("Subject"), "Pedal squeaks");
    await user.type(screen.getByLabelText("Description"), "Left pedal.");
    await user.selectOptions(screen.getByLabelText("Priority"), "High");
    await user.click(screen.getByRole("button", { name: "Create Ticket" }));

    expect(await screen.findByText("Failed to create ticket: Your trial has ended")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Create Ticket" })).toBeEnabled());
    expect(router.state.location.pathname).toBe("/tickets/new");
  });
});

describe("files on a new ticket", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.reset();
  });

  it("uploads a chosen file before the ticket exists and sends its id with it", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const created = ticket({ ticket_number: 315, subject: "Torn tent" });
    const fetchMock = signedIn({
      "POST /api/tickets": () => json(201, { ticket: created }),
      [`GET /api/tickets/${created.id}`]: () => json(200, { ticket: created }),
      "GET /api/users": () => json(200, { users: [] }),
    });
    const { user } = renderApp("/tickets/new");

    await user.type(await screen.findByLabelText("Requester Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Requester Email"), "grace@example.com");
    await user.type(screen.getByLabelText("Subject"), "Torn tent");
    await user.type(screen.getByLabelText("Description"), "See the photo.");
    await user.upload(screen.getByLabelText("Attach files"), new File(["png"], "tent.png", { type: "image/png" }));
    const files = screen.getByRole("list", { name: "Files of this ticket" });
    expect(await within(files).findByText("Uploaded")).toBeInTheDocument();
    expect(FakeXhr.sent[0]?.url).toBe("/api/attachments?filename=tent.png");
    expect(FakeXhr.sent[0]?.headers.Authorization).toMatch(/^Bearer /);

    await user.click(screen.getByRole("button", { name: "Create Ticket" }));
    expect(await screen.findByRole("heading", { level: 1, name: "#315 Torn tent" })).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      subject: "Torn tent",
      attachment_ids: ["9b2f6c1d-3e4a-4b5c-8d7e-0f1a2b3c4d5e"],
    });
  });
});

describe("a subject over the limit", () => {
  it("is kept whole, counted, and refused with the limit's message instead of being cut", async () => {
    const fetchMock = signedIn();
    const { user } = renderApp("/tickets/new");
    const subject = "x".repeat(600);
    const field = await screen.findByLabelText("Subject");
    await user.click(field);
    await user.paste(subject);
    expect(field).toHaveValue(subject);
    expect(screen.getByText("600 / 250 characters")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create Ticket" }));
    expect(await screen.findByText("Subject must be at most 250 characters")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });
});
