import { contactAnswer, contactListAnswer, ticketContactAnswer } from "@cove/contract/contacts.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { contactKeys } from "../../../lib/query-keys.ts";

export interface ContactListParams {
  page: number;
  search?: string;
}

export function useContactList(params: ContactListParams) {
  const query = new URLSearchParams({ page: String(params.page) });
  if (params.search) query.set("search", params.search);
  return useQuery({
    queryKey: contactKeys.list(params),
    queryFn: ({ signal }) => apiRequest(`/contacts?${query}`, { schema: contactListAnswer, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(`/contacts/${encodeURIComponent(id)}`, { schema: contactAnswer, signal }),
  });
}

/** A ticket's requester as a customer, with their other tickets. */
export function useTicketContact(ticketId: string) {
  return useQuery({
    queryKey: contactKeys.ofTicket(ticketId),
    queryFn: ({ signal }) =>
      apiRequest(`/tickets/${encodeURIComponent(ticketId)}/contact`, { schema: ticketContactAnswer, signal }),
  });
}
