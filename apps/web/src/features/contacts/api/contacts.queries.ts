import { contactsApi, privacyApi } from "@cove/contract/contacts.ts";
import { routePath } from "@cove/contract/routes.ts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";
import { contactKeys, ticketKeys } from "../../../lib/query-keys.ts";

export interface ContactListParams {
  page: number;
  search?: string;
}

export function useContactList(params: ContactListParams) {
  // An empty search is left out of the address, as no search.
  const query = { page: params.page, search: params.search || undefined };
  return useQuery({
    queryKey: contactKeys.list(params),
    queryFn: ({ signal }) => callRoute(contactsApi.list, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useContact(id: string) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => callRoute(contactsApi.get, { params: { id }, signal }),
  });
}

/** A ticket's requester as a customer, with their other tickets. */
export function useTicketContact(ticketId: string) {
  return useQuery({
    queryKey: contactKeys.ofTicket(ticketId),
    queryFn: ({ signal }) => callRoute(contactsApi.ofTicket, { params: { id: ticketId }, signal }),
  });
}

const exportKey = (id: string) => [...contactKeys.detail(id), "export"] as const;

/** The latest export of a customer's data (admins); polled every second while its job runs. */
export function useContactExport(id: string, enabled: boolean) {
  return useQuery({
    queryKey: exportKey(id),
    queryFn: ({ signal }) => callRoute(privacyApi.latestExport, { params: { id }, signal }),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.export?.status;
      return status === "queued" || status === "running" ? 1000 : false;
    },
  });
}

export function useStartContactExport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(privacyApi.startExport, { params: { id } }),
    onSuccess: (data) => queryClient.setQueryData(exportKey(id), data),
  });
}

export function downloadContactExport(id: string, exportId: string): Promise<void> {
  return downloadWithSession(
    routePath(privacyApi.downloadExport, { id, exportId }).slice("/api".length),
    "cove-customer-export.zip",
    "The export could not be downloaded. Start a new one and try again.",
  );
}

/** Erases a customer (admins): the contact page then shows them anonymized; lists and tickets are read again. */
export function useEraseContact(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmEmail: string) => callRoute(privacyApi.erase, { params: { id }, body: { confirmEmail } }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: exportKey(id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
        queryClient.invalidateQueries({ queryKey: ticketKeys.all }),
      ]);
    },
  });
}
