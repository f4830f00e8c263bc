import type { Attachment } from "@cove/contract/attachments.ts";
import type { Satisfaction } from "@cove/contract/csat.ts";
import type {
  CustomerComment,
  CustomerTicket,
  CustomerTicketDetail,
  PortalOrganization,
  PortalSessionAnswer,
} from "@cove/contract/portal.ts";
import { json, mockApi } from "../../../test/render-app.tsx";

export const organization: PortalOrganization = {
  name: "Acme Outdoor Co.",
  slug: "acme",
  branding: { logo_url: null, color: "#4f46e5" },
};

export const customer = {
  id: "7d1a4a4e-3b1f-4f57-8b8c-0a0b0c0d0e01",
  name: "Sam Rivera",
  email: "sam@example.com",
  company: "Rivera Trail Club",
};

export const session: PortalSessionAnswer = { token: "ct.portal-token-of-sam-rivera", customer, organization };

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;

export function customerTicket(overrides: Partial<CustomerTicket> = {}): CustomerTicket {
  return {
    id: id(),
    ticket_number: 17,
    subject: "Exchange hiking boots",
    description: "They are a little tight.",
    status: "open",
    priority: "normal",
    created_at: "2030-01-10T09:00:00.000Z",
    updated_at: "2030-01-11T09:00:00.000Z",
    comment_count: 1,
    ...overrides,
  };
}

export function customerComment(overrides: Partial<CustomerComment> = {}): CustomerComment {
  return {
    id: id(),
    body: "We have reserved a pair for you.",
    author_name: "Marco Alvarez",
    from_customer: false,
    created_at: "2030-01-10T10:00:00.000Z",
    ...overrides,
  };
}

export function ticketDetail(
  base: CustomerTicket,
  comments: CustomerComment[] = [customerComment()],
  satisfaction: Satisfaction | null = null,
  attachments: Attachment[] = [],
): CustomerTicketDetail {
  return { ...base, comment_count: comments.length, comments, satisfaction, attachments };
}

export const openSurvey: Satisfaction = {
  rating: null,
  comment: null,
  changeable_until: "2030-01-20T09:00:00.000Z",
  can_change: true,
};

export const listOf = (tickets: CustomerTicket[]) => ({
  tickets,
  pagination: { page: 1, limit: 25, total: tickets.length, pages: 1, next_cursor: null },
});

/** The Authorization header of the first call to a path that starts with `path`. */
export function authOf(fetchMock: ReturnType<typeof mockApi>, path: string) {
  const call = fetchMock.mock.calls.find(([input]) => String(input).startsWith(path));
  return new Headers(call?.[1]?.headers).get("Authorization");
}

/** Sam signed in to Acme's portal (the session stored), `tickets` on their list, and `handlers` for the other calls. */
export function signedInPortal(tickets: CustomerTicket[], handlers: Parameters<typeof mockApi>[0]) {
  localStorage.setItem("cove.portal.acme", JSON.stringify(session));
  return mockApi({
    "GET /api/portal/me": () => json(200, { customer: session.customer, organization }),
    "GET /api/portal/tickets": () => json(200, listOf(tickets)),
    ...handlers,
  });
}
