import type { Contact } from "@cove/contract/contacts.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, findOpenDialog, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
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
          pagination: { page: 1, limit: 25, total: 2, pages: 1, next_cursor: null },
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

  it("erases a customer from a danger zone once their email is typed, then shows them anonymized", async () => {
    const id = "0c0c0c0c-0000-4000-8000-000000000001";
    let erased = false;
    const bodies: unknown[] = [];
    const fetchMock = signedIn({
      [`GET /api/contacts/${id}`]: () =>
        json(200, {
          contact: erased ? contact({ name: "Deleted customer", email: null, company: null }) : contact(),
          tickets: [summary(7, "Broken lamp")],
          chats: [],
        }),
      [`GET /api/contacts/${id}/export`]: () => json(200, { export: null }),
      [`POST /api/contacts/${id}/erase`]: (init) => {
        const body = JSON.parse(String(init?.body));
        bodies.push(body);
        if (body.confirmEmail.trim().toLowerCase() !== "ana@example.com") {
          return json(422, {
            error: "The email you typed does not match this customer's email.",
            code: "CONFIRMATION_MISMATCH",
          });
        }
        erased = true;
        return json(200, {
          contact: contact({ name: "Deleted customer", email: null, company: null }),
          erased: { tickets_anonymized: 1, chats: 0, files: 0, surveys: 0, sessions: 0 },
        });
      },
    });
    const { user } = renderApp(`/contacts/${id}`);
    const zone = await screen.findByRole("region", { name: "Danger zone" });
    expect(screen.getByRole("button", { name: "Export data" })).toBeInTheDocument();
    await user.click(within(zone).getByRole("button", { name: "Erase customer" }));
    const dialog = await findOpenDialog("alertdialog", { name: "Erase Ana Ruiz?" });
    const field = within(dialog).getByLabelText("Customer's email");
    const confirm = within(dialog).getByRole("button", { name: "Erase forever" });
    // Nothing can be erased until the email is typed.
    expect(confirm).toBeDisabled();
    await user.type(field, "ana@example.co");
    expect(confirm).toBeDisabled();
    expect(calls(fetchMock)).not.toContain(`POST /api/contacts/${id}/erase`);
    await user.type(field, "m");
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText("The customer was erased.")).toBeInTheDocument();
    expect(bodies).toEqual([{ confirmEmail: "ana@example.com" }]);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(await screen.findByRole("heading", { level: 1, name: "Deleted customer" })).toBeInTheDocument();
    expect(screen.queryByText("ana@example.com")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Danger zone" })).not.toBeInTheDocument();
    expect(screen.getByText(/This customer was erased/)).toBeInTheDocument();
  });

  it("shows the API's refusal in the erase dialog and keeps the customer", async () => {
    const id = "0c0c0c0c-0000-4000-8000-000000000001";
    signedIn({
      [`GET /api/contacts/${id}`]: () => json(200, { contact: contact(), tickets: [], chats: [] }),
      [`GET /api/contacts/${id}/export`]: () => json(200, { export: null }),
      [`POST /api/contacts/${id}/erase`]: () =>
        json(422, {
          error: "The email you typed does not match this customer's email.",
          code: "CONFIRMATION_MISMATCH",
        }),
    });
    const { user } = renderApp(`/contacts/${id}`);
    const zone = await screen.findByRole("region", { name: "Danger zone" });
    await user.click(within(zone).getByRole("button", { name: "Erase customer" }));
    const dialog = await findOpenDialog("alertdialog");
    await user.type(within(dialog).getByLabelText("Customer's email"), "ANA@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Erase forever" }));
    expect(
      await within(dialog).findByText("The email you typed does not match this customer's email."),
    ).toBeInTheDocument();
    // The dialog stays open over the page (which the dialog hides from assistive technology meanwhile).
    expect(screen.getByRole("heading", { level: 1, name: "Ana Ruiz", hidden: true })).toBeInTheDocument();
  });

  it("exports a customer's data: progress, then a download", async () => {
    const id = "0c0c0c0c-0000-4000-8000-000000000001";
    const running = {
      id: "0f0f0f0f-0000-4000-8000-000000000001",
      status: "running",
      progress: 40,
      created_at: "2030-01-01T00:00:00.000Z",
      finished_at: null,
      size_bytes: null,
      error: null,
    };
    let polls = 0;
    const fetchMock = signedIn({
      [`GET /api/contacts/${id}`]: () => json(200, { contact: contact(), tickets: [], chats: [] }),
      [`GET /api/contacts/${id}/export`]: () =>
        json(200, {
          export:
            polls++ === 0
              ? null
              : { ...running, status: "done", progress: 100, size_bytes: 2048, finished_at: running.created_at },
        }),
      [`POST /api/contacts/${id}/export`]: () => json(202, { export: running }),
    });
    const { user } = renderApp(`/contacts/${id}`);
    await user.click(await screen.findByRole("button", { name: "Export data" }));
    expect(await screen.findByRole("progressbar", { name: "Export progress" })).toHaveAttribute("aria-valuenow", "40");
    expect(await screen.findByRole("button", { name: /Download \(2 KB\)/ }, { timeout: 10_000 })).toBeInTheDocument();
    expect(calls(fetchMock)).toContain(`POST /api/contacts/${id}/export`);
  });

  it("shows agents no customer data actions", async () => {
    const id = "0c0c0c0c-0000-4000-8000-000000000001";
    const agent = { ...testUser, role: "agent" as const };
    storeSession(agent);
    mockApi({
      "GET /api/auth/me": () => json(200, { user: agent }),
      [`GET /api/contacts/${id}`]: () => json(200, { contact: contact(), tickets: [], chats: [] }),
    });
    renderApp(`/contacts/${id}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Ana Ruiz" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Danger zone" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Export data" })).not.toBeInTheDocument();
  });
});
