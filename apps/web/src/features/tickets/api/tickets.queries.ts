import {
  type Ticket,
  type TicketPriority,
  type TicketSort,
  type TicketStatus,
  ticketAnswer,
  ticketListAnswer,
  ticketStats,
} from "@cove/contract/tickets.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { ticketKeys } from "../../../lib/query-keys.ts";

/** What a ticket list is asked for; the same shape lives in the list page's URL. */
export interface TicketListParams {
  page: number;
  limit?: number;
  status?: TicketStatus;
  priority?: TicketPriority;
  /** "unassigned", "me", or a user id. */
  assignee_id?: string;
  search?: string;
  /** Cove: sla_due lists the soonest SLA due time first. */
  sort?: TicketSort;
}

export function ticketListPath(params: TicketListParams): string {
  const query = new URLSearchParams();
  query.set("page", String(params.page));
  if (params.limit !== undefined) query.set("limit", String(params.limit));
  if (params.status) query.set("status", params.status);
  if (params.priority) query.set("priority", params.priority);
  if (params.assignee_id) query.set("assignee_id", params.assignee_id);
  if (params.search) query.set("search", params.search);
  if (params.sort) query.set("sort", params.sort);
  return `/tickets?${query}`;
}

export function useTicketList(params: TicketListParams) {
  return useQuery({
    queryKey: ticketKeys.list(params),
    queryFn: ({ signal }) => apiRequest(ticketListPath(params), { schema: ticketListAnswer, signal }),
    // The rows of the previous page or filter stay on screen (dimmed) until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useTicket(id: string) {
  return useQuery({
    queryKey: ticketKeys.detail(id),
    queryFn: async ({ signal }): Promise<Ticket> =>
      (await apiRequest(`/tickets/${encodeURIComponent(id)}`, { schema: ticketAnswer, signal })).ticket,
  });
}

export function useTicketStats() {
  return useQuery({
    queryKey: ticketKeys.stats(),
    queryFn: ({ signal }) => apiRequest("/tickets/stats/overview", { schema: ticketStats, signal }),
  });
}
