import type { Contact } from "@cove/contract/contacts.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { ticket } from "../../tickets/test/ticket-fixtures.ts";

function contact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: "0c0c0c0c-0000-4000-8000-000000000001",
    name: "Ana Ruiz",
    email: "ana@example.com",
    company: "Ruiz Outfitters",
    created_at: "2030-01-01T00:00:00.000Z",
    ticket_count: 2,
    last_ticket_at: "2030-01-05T00:00:00.000Z",
    ...overrides,
  };
}

const summary = (n: number, subject: string) => ({
  id: `0d0d0d0d-0000-4000-8000-00000000000${n}`,
  ticket_number: n,
  subject,
  status: "open" as const,
  priority: "normal" as const,
  created_at: "2030-01-02T00:00:00.000Z",
  updated_at: "2030-01-03T00:00:00.000Z",
});

function signedIn(handlers: Parameters<typeof mockApi>[0]) {
  storeSession();
  return mockApi({ "GET /api/auth/me": () => json(200, { user: testUser }), ...handlers });
}

describe("contacts for staff", () => {
  it("lists the customers with their ticket counts and searches them", async () => {
    const fetchMock = signedIn({
      "GET /api/contacts": () =>
        json(200, {
          contacts: [
            contact(),
            contact({
              id: "0c0c0c0c-0000-4000-8000-000000000002",
              name: "<b>Bo</b>",
              email: null,
              company: null,
              ticket_count: 0,
              last_ticket_at: null,
            }),
          ],
          pagination: { page: 1, limit: 25, total: 2, pages: 1 },
        }),
    });
    const { user, router } = renderApp("/contacts");
    const table = await screen.findByRole("table");
    expect(within(table).getByRole("link", { name: "Ana Ruiz" })).toHaveAttribute(
      "href",
      "/contacts/0c0c0c0c-0000-4000-8000-000000000001",
    );
    expect(within(table).getByText("Ruiz Outfitters")).toBeInTheDocument();
    expect(within(table).getByRole("link", { name: "<b>Bo</b>" })).toBeInTheDocument();
    expect(within(table).getByText("No email")).toBeInTheDocument();
    await user.type(screen.getByRole("searchbox"), "ruiz");
    await waitFor(() => expect(router.state.location.search).toBe("?search=ruiz"));
    await waitFor(() => expect(calls(fetchMock)).toContain("GET /api/contacts?page=1&search=ruiz"));
  });

  it("opens a customer with their tickets and live chats", async () => {
    signedIn({
      "GET /api/contacts/0c0c0c0c-0000-4000-8000-000000000001": () =>
        json(200, {
          contact: contact(),
          tickets: [summary(7, "Broken lamp"), summary(8, "Late parcel")],
          chats: [
            {
              id: "0e0e0e0e-0000-4000-8000-000000000009",
              status: "closed",
              started_at: "2026-11-20T10:00:00.000Z",
              last_message: "Thanks, that sorted it",
              resolved_by_ai: true,
            },
          ],
        }),
    });
    renderApp("/contacts/0c0c0c0c-0000-4000-8000-000000000001");
    expect(await screen.findByRole("heading", { level: 1, name: "Ana Ruiz" })).toBeInTheDocument();
    expect(screen.getByText("ana@example.com")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Tickets (2)" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /#7 Broken lamp/ })).toHaveAttribute(
      "href",
      "/tickets/0d0d0d0d-0000-4000-8000-000000000007",
    );
    const chats = screen.getByRole("region", { name: "Live chats" });
    expect(within(chats).getByRole("link", { name: /Thanks, that sorted it/ })).toHaveAttribute(
      "href",
      "/chat?session=0e0e0e0e-0000-4000-8000-000000000009",
    );
    expect(within(chats).getByText(/Closed · resolved by the assistant/)).toBeInTheDocument();
  });

  it("shows the ticket's customer and their other tickets beside a ticket", async () => {
    const current = ticket();
    signedIn({
      "GET /api/users": () => json(200, { users: [] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      [`GET /api/tickets/${current.id}/contact`]: () =>
        json(200, { contact: contact(), other_tickets: [summary(8, "Late parcel")] }),
    });
    renderApp(`/tickets/${current.id}`);
    const panel = await screen.findByRole("region", { name: "Customer" });
    expect(await within(panel).findByRole("link", { name: "Ana Ruiz" })).toHaveAttribute(
      "href",
      "/contacts/0c0c0c0c-0000-4000-8000-000000000001",
    );
    expect(within(panel).getByText("Ruiz Outfitters")).toBeInTheDocument();
    expect(within(panel).getByRole("heading", { name: "Other tickets (1)" })).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: /#8 Late parcel/ })).toBeInTheDocument();
  });
});
