import type { RateBody } from "@cove/contract/csat.ts";
import { helpCenterApi } from "@cove/contract/kb.ts";
import {
  type CreatePortalTicketBody,
  type CustomerTicketDetail,
  type PortalReplyBody,
  portalApi,
  type UpdatePortalMeBody,
} from "@cove/contract/portal.ts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { portalRequest, usePortal } from "./portal-context.ts";

/** Every portal query starts with "portal"; the portal has a query cache of its own per signed-in customer. */
export const portalKeys = {
  all: ["portal"] as const,
  me: () => [...portalKeys.all, "me"] as const,
  tickets: () => [...portalKeys.all, "tickets"] as const,
  ticketPage: (page: number) => [...portalKeys.tickets(), page] as const,
  ticket: (id: string) => [...portalKeys.all, "ticket", id] as const,
  help: (orgSlug: string, q: string) => [...portalKeys.all, "help", orgSlug, q] as const,
};

export function usePortalMe() {
  const portal = usePortal();
  return useQuery({
    queryKey: portalKeys.me(),
    queryFn: ({ signal }) => portalRequest(portal, portalApi.me, { signal }),
  });
}

export function useUpdateMe() {
  const portal = usePortal();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePortalMeBody) => portalRequest(portal, portalApi.updateMe, { body }),
    onSuccess: (answer) => queryClient.setQueryData(portalKeys.me(), answer),
  });
}

export function useMyTickets(page: number) {
  const portal = usePortal();
  return useQuery({
    queryKey: portalKeys.ticketPage(page),
    queryFn: ({ signal }) => portalRequest(portal, portalApi.tickets, { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMyTicket(id: string) {
  const portal = usePortal();
  return useQuery({
    queryKey: portalKeys.ticket(id),
    queryFn: async ({ signal }): Promise<CustomerTicketDetail> =>
      (await portalRequest(portal, portalApi.ticket, { params: { id }, signal })).ticket,
  });
}

export function useCreateMyTicket() {
  const portal = usePortal();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreatePortalTicketBody) =>
      (await portalRequest(portal, portalApi.createTicket, { body })).ticket,
    onSuccess: (ticket) => {
      queryClient.setQueryData(portalKeys.ticket(ticket.id), ticket);
      void queryClient.invalidateQueries({ queryKey: portalKeys.tickets() });
    },
  });
}

export function useReplyToMyTicket(id: string) {
  const portal = usePortal();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PortalReplyBody) =>
      (await portalRequest(portal, portalApi.reply, { params: { id }, body })).comment,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: portalKeys.ticket(id) });
      void queryClient.invalidateQueries({ queryKey: portalKeys.tickets() });
    },
  });
}

export function useRateMyTicket(id: string) {
  const portal = usePortal();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: RateBody) =>
      (await portalRequest(portal, portalApi.rate, { params: { id }, body })).satisfaction,
    onSuccess: (satisfaction) =>
      queryClient.setQueryData(portalKeys.ticket(id), (ticket: CustomerTicketDetail | undefined) =>
        ticket ? { ...ticket, satisfaction } : ticket,
      ),
  });
}

/** An article as the portal's knowledge-base tab lists it. */
export interface PortalArticle {
  id: string;
  title: string;
  slug: string;
  category_name: string | null;
  excerpt: string | null;
}

/** The organization's published articles (the public help center's API): all of them, or those matching q. */
export function useHelpArticles(orgSlug: string, q: string) {
  const params = { orgSlug };
  return useQuery({
    queryKey: portalKeys.help(orgSlug, q),
    queryFn: async ({ signal }): Promise<PortalArticle[]> => {
      if (q) {
        const found = await callRoute(helpCenterApi.search, { params, query: { q }, signal, anonymous: true });
        return found.results;
      }
      const center = await callRoute(helpCenterApi.center, { params, signal, anonymous: true });
      const inCategories = center.categories.flatMap((c) =>
        c.articles.map((a) => ({ ...a, category_name: c.name, excerpt: null })),
      );
      return [...inCategories, ...center.uncategorized.map((a) => ({ ...a, category_name: null, excerpt: null }))];
    },
    placeholderData: keepPreviousData,
  });
}
