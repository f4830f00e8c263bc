import type { Comment, Ticket, TicketSummary } from "@cove/contract/tickets.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { type PageOf, paginationOf } from "../../../test/pagination.ts";
import { testUser } from "../../../test/render-app.tsx";

let n = 0;
/** A fresh, valid uuid per call, so lists of fixtures never share ids. */
export function uuid(): string {
  n += 1;
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

export function ticketSummary(overrides: Partial<TicketSummary> = {}): TicketSummary {
  const number = overrides.ticket_number ?? 100 + n;
  return {
    id: uuid(),
    ticket_number: number,
    subject: `Order ${number} arrived damaged`,
    description: "The box was crushed.\nThe bike frame is scratched.",
    status: "open",
    priority: "normal",
    source: "web",
    requester_name: "Grace Hopper",
    requester_email: "grace@example.com",
    requester_first_name: "Grace",
    requester_last_name: "Hopper",
    assignee_id: null,
    assignee_first_name: null,
    assignee_last_name: null,
    tags: [],
    created_at: "2026-03-02T09:15:00.000Z",
    updated_at: "2026-03-02T10:30:00.000Z",
    solved_at: null,
    sla_due: null,
    ...overrides,
  };
}

export function comment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: uuid(),
    body: "Thanks, we are looking into it.",
    is_public: true,
    author_name: "Ada Lovelace",
    author_email: testUser.email,
    created_at: "2026-03-02T11:00:00.000Z",
    ...overrides,
  };
}

export function ticket(overrides: Partial<Ticket> = {}): Ticket {
  return { ...ticketSummary(overrides), comments: [], activity: [], ...overrides };
}

export function agent(overrides: Partial<UserListItem> = {}): UserListItem {
  return {
    id: uuid(),
    first_name: "Alan",
    last_name: "Turing",
    email: "alan@example.com",
    role: "agent",
    status: "active",
    last_login_at: null,
    avatar_url: null,
    ...overrides,
  };
}

/** The signed-in test user as the team list shows them. */
export const me: UserListItem = agent({
  id: testUser.id,
  first_name: testUser.firstName,
  last_name: testUser.lastName,
  email: testUser.email,
  role: "admin",
});

export function listAnswer(tickets: TicketSummary[], pagination: PageOf & { capped?: boolean } = {}) {
  const capped = pagination.capped ? { capped: true } : {};
  return { tickets, pagination: { ...paginationOf(tickets.length, 25, pagination), ...capped } };
}
