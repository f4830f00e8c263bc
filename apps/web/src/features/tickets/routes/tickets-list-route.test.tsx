import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { calls, columnHeaders, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { agent, listAnswer, me, ticketSummary } from "../test/ticket-fixtures.ts";

const alan = agent({ first_name: "Alan", last_name: "Turing" });
const gone = agent({ first_name: "Former", last_name: "Colleague", status: "inactive" });

function signedIn(list: () => Response) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/users": () => json(200, { users: [me, alan, gone] }),
    "GET /api/tickets": list,
  });
}

function ticketCalls(fetchMock: ReturnType<typeof mockApi>): string[] {
  return calls(fetchMock).filter((c) => c.startsWith("GET /api/tickets"));
}

describe("tickets list", () => {
  // Moving between pages scrolls to the top, which jsdom does not do.
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("shows the spec's six columns and the SLA one, one row per ticket, and where the page sits in the list", async () => {
    const rows = [
      ticketSummary({ ticket_number: 42, subject: "Refund for order 42", status: "pending", priority: "urgent" }),
      ticketSummary({
        ticket_number: 41,
        subject: "Helmet size",
        assignee_id: alan.id,
        assignee_first_name: "Alan",
        assignee_last_name: "Turing",
      }),
    ];
    const fetchMock = signedIn(() => json(200, listAnswer(rows, { page: 2, total: 27 })));
    renderApp("/tickets?page=2");

    const table = await screen.findByRole("table", { name: "Tickets" });
    expect(columnHeaders(table)).toEqual(["Ticket", "Status", "Priority", "Requester", "Assignee", "SLA", "Updated"]);
    const [first, second] = within(table).getAllByRole("row").slice(1);
    expect(first).toHaveTextContent("#42");
    expect(within(first!).getByRole("link", { name: "Refund for order 42" })).toHaveAttribute(
      "href",
      `/tickets/${rows[0]!.id}`,
    );
    expect(first).toHaveTextContent("Pending");
    expect(first).toHaveTextContent("Urgent");
    expect(first).toHaveTextContent("Grace Hopper");
    expect(first).toHaveTextContent("Unassigned");
    expect(second).toHaveTextContent("Alan Turing");
    expect(screen.getByText("Showing 26 to 27 of 27 results")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Previous" })).toBeEnabled();
    expect(screen.getByRole("link", { name: "New Ticket" })).toHaveAttribute("href", "/tickets/new");
    expect(ticketCalls(fetchMock)).toEqual(["GET /api/tickets?page=2&limit=25"]);
  });

  it("takes its filters from the address, as the dashboard's links give them", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([ticketSummary()])));
    renderApp("/tickets?status=open&priority=urgent&assignee_id=unassigned&page=2");

    expect(await screen.findByRole("table", { name: "Tickets" })).toBeInTheDocument();
    expect(screen.getByLabelText("Status")).toHaveValue("open");
    expect(screen.getByLabelText("Priority")).toHaveValue("urgent");
    expect(screen.getByLabelText("Assignee")).toHaveValue("unassigned");
    expect(ticketCalls(fetchMock)).toEqual([
      "GET /api/tickets?page=2&limit=25&status=open&priority=urgent&assignee_id=unassigned",
    ]);
  });

  it("puts a changed filter in the address and starts again from page 1", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([ticketSummary()], { total: 80, page: 3 })));
    const { user, router } = renderApp("/tickets?status=open&page=3");
    await screen.findByRole("table", { name: "Tickets" });

    await user.selectOptions(screen.getByLabelText("Priority"), "High");

    await waitFor(() => expect(router.state.location.search).toBe("?status=open&priority=high"));
    await waitFor(() =>
      expect(ticketCalls(fetchMock)).toContain("GET /api/tickets?page=1&limit=25&status=open&priority=high"),
    );

    // The back button restores the previous filters and page.
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByLabelText("Priority")).toHaveValue(""));
    expect(router.state.location.search).toBe("?status=open&page=3");
  });

  it("shows each ticket's next SLA due time with the detail's warnings, and sorts by it", async () => {
    const now = Date.now();
    const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();
    const rows = [
      // Due in 5 minutes of a 60-minute target: close to breach.
      ticketSummary({ ticket_number: 3, created_at: at(-55), sla_due: { kind: "first_response", due_at: at(5) } }),
      ticketSummary({ ticket_number: 2, created_at: at(-120), sla_due: { kind: "resolution", due_at: at(-60) } }),
      ticketSummary({ ticket_number: 1, created_at: at(-10), sla_due: { kind: "resolution", due_at: at(230) } }),
      ticketSummary({ ticket_number: 4, status: "solved", sla_due: null }),
    ];
    const fetchMock = signedIn(() => json(200, listAnswer(rows)));
    const { user, router } = renderApp("/tickets?status=open&page=2");
    const table = await screen.findByRole("table", { name: "Tickets" });
    const sla = (row: number) => within(within(table).getAllByRole("row")[row + 1]!).getAllByRole("cell")[5]!;
    expect(sla(0)).toHaveTextContent(/^Close to breach\s*First response in 5 minutes$/);
    expect(sla(1)).toHaveTextContent(/^Breached\s*Resolution 1 hour ago$/);
    expect(sla(2)).toHaveTextContent(/^On track\s*Resolution in 4 hours$/);
    expect(sla(3)).toHaveTextContent("—");

    await user.selectOptions(screen.getByLabelText("Sort by"), "SLA due soonest");
    await waitFor(() => expect(router.state.location.search).toBe("?status=open&sort=sla_due"));
    await waitFor(() =>
      expect(ticketCalls(fetchMock)).toContain("GET /api/tickets?page=1&limit=25&status=open&sort=sla_due"),
    );
    await user.selectOptions(screen.getByLabelText("Sort by"), "Last updated");
    await waitFor(() => expect(router.state.location.search).toBe("?status=open"));
  });

  it("offers All, Unassigned, Mine and each active agent as assignees", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([ticketSummary()])));
    const { user, router } = renderApp("/tickets");

    const assignee = await screen.findByLabelText("Assignee");
    await waitFor(() => expect(within(assignee).getAllByRole("option")).toHaveLength(5));
    expect(
      within(assignee)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["All assignees", "Unassigned", "Mine", "Ada Lovelace (you)", "Alan Turing"]);

    await user.selectOptions(assignee, "Mine");
    await waitFor(() => expect(router.state.location.search).toBe("?assignee_id=me"));
    await user.selectOptions(assignee, "Alan Turing");
    await waitFor(() => expect(router.state.location.search).toBe(`?assignee_id=${alan.id}`));
    await waitFor(() =>
      expect(ticketCalls(fetchMock)).toContain(`GET /api/tickets?page=1&limit=25&assignee_id=${alan.id}`),
    );
  });

  it("searches once typing pauses, from the first page", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([ticketSummary()], { total: 60, page: 2 })));
    const { user, router } = renderApp("/tickets?page=2");
    await screen.findByRole("table", { name: "Tickets" });

    await user.type(screen.getByLabelText("Search"), "crushed box");

    await waitFor(() => expect(router.state.location.search).toBe("?search=crushed+box"));
    const searches = () => ticketCalls(fetchMock).filter((c) => c.includes("search="));
    // One request for the whole phrase, not one per keystroke.
    await waitFor(() => expect(searches()).toEqual(["GET /api/tickets?page=1&limit=25&search=crushed+box"]));
  });

  it("moves between pages with Previous and Next", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([ticketSummary()], { total: 60, page: 1 })));
    const { user, router } = renderApp("/tickets?priority=low");

    expect(await screen.findByText("Showing 1 to 25 of 60 results")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next" }));

    await waitFor(() => expect(router.state.location.search).toBe("?priority=low&page=2"));
    await waitFor(() => expect(ticketCalls(fetchMock)).toContain("GET /api/tickets?page=2&limit=25&priority=low"));
  });

  it("says a search found more than it ranks", async () => {
    signedIn(() => json(200, listAnswer([ticketSummary()], { total: 200, page: 8, capped: true })));
    renderApp("/tickets?search=refund&page=8");

    expect(await screen.findByText("Showing 176 to 200 of 200+ results")).toBeInTheDocument();
    expect(screen.getByText(/add a word to narrow it/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
  });

  it("says when nothing matches and clears the filters", async () => {
    signedIn(() => json(200, listAnswer([])));
    const { user, router } = renderApp("/tickets?status=closed");

    expect(await screen.findByText("No tickets match these filters")).toBeInTheDocument();
    await user.click(screen.getAllByRole("button", { name: "Clear filters" })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("shows an empty queue with a way to create the first ticket", async () => {
    signedIn(() => json(200, listAnswer([])));
    renderApp("/tickets");

    expect(await screen.findByText("No tickets yet")).toBeInTheDocument();
    expect(screen.getAllByRole("link", { name: "New Ticket" })).toHaveLength(2);
  });

  it("says Error loading tickets with the server's message", async () => {
    signedIn(() => json(500, { error: "The database is unavailable", code: "INTERNAL_ERROR" }));
    renderApp("/tickets");

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Error loading tickets");
    expect(alert).toHaveTextContent("The database is unavailable");
  });
});
