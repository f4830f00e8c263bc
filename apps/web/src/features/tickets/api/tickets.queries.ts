import {
  type Ticket,
  type TicketPriority,
  type TicketSort,
  type TicketStatus,
  ticketsApi,
} from "@cove/contract/tickets.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
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

/** The list's query, in the order the address has always had; an empty filter is left out. */
function ticketListQuery(params: TicketListParams) {
  return {
    page: params.page,
    limit: params.limit,
    status: params.status || undefined,
    priority: params.priority || undefined,
    assignee_id: params.assignee_id || undefined,
    search: params.search || undefined,
    sort: params.sort || undefined,
  };
}

export function useTicketList(params: TicketListParams) {
  return useQuery({
    queryKey: ticketKeys.list(params),
    queryFn: ({ signal }) => callRoute(ticketsApi.list, { query: ticketListQuery(params), signal }),
    // The rows of the previous page or filter stay on screen (dimmed) until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useTicket(id: string) {
  return useQuery({
    queryKey: ticketKeys.detail(id),
    queryFn: async ({ signal }): Promise<Ticket> =>
      (await callRoute(ticketsApi.get, { params: { id }, signal })).ticket,
  });
}

export function useTicketStats() {
  return useQuery({
    queryKey: ticketKeys.stats(),
    queryFn: ({ signal }) => callRoute(ticketsApi.stats, { signal }),
  });
}
