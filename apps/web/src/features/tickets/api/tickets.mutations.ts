import {
  type CreateCommentBody,
  type CreateTicketBody,
  type Ticket,
  ticketsApi,
  type UpdateTicketBody,
} from "@cove/contract/tickets.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { organizationStatsKey, ticketKeys } from "../../../lib/query-keys.ts";
import { toastError } from "../../../lib/toast-error.ts";

export const UPDATE_FAILED = "Failed to update ticket. Please try again.";
export const COMMENT_FAILED = "Failed to add comment. Please try again.";

/** The spec's fixed headline, with the reason underneath so the user knows what to fix. */
function toastFailure(title: string, error: unknown) {
  toastError(error, title);
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateTicketBody) => (await callRoute(ticketsApi.create, { body })).ticket,
    onSuccess: (ticket) => {
      queryClient.setQueryData(ticketKeys.detail(ticket.id), ticket);
      // Lists and counters include the new ticket the next time they are shown.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.stats() });
      // The dashboard's 30-day trend (GET /organizations/stats) counts created tickets too.
      void queryClient.invalidateQueries({ queryKey: organizationStatsKey });
    },
  });
}

export interface TicketChange {
  body: UpdateTicketBody;
  /** For an assignment: the new assignee's name, so the change shows before the server answers. */
  assignee?: Pick<UserListItem, "first_name" | "last_name"> | null;
}

/** The ticket as it will be once the server accepts the change. */
function applyChange(ticket: Ticket, { body, assignee }: TicketChange): Ticket {
  const next: Ticket = { ...ticket };
  if (body.status) next.status = body.status;
  if (body.priority) next.priority = body.priority;
  if (body.tags) next.tags = [...new Set(body.tags.map((t) => t.trim().toLowerCase()))];
  if (body.assignee_id !== undefined) {
    next.assignee_id = body.assignee_id;
    next.assignee_first_name = assignee?.first_name ?? null;
    next.assignee_last_name = assignee?.last_name ?? null;
  }
  return next;
}

/**
 * Status, priority, assignee and tags save the moment they change: the screen shows the new value at once, and puts the
 * old one back (with the spec's error toast) if the server refuses.
 */
export function useUpdateTicket(id: string) {
  const queryClient = useQueryClient();
  const key = ticketKeys.detail(id);
  return useMutation({
    mutationFn: async ({ body }: TicketChange) => (await callRoute(ticketsApi.update, { params: { id }, body })).ticket,
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Ticket>(key);
      if (previous) queryClient.setQueryData(key, applyChange(previous, change));
      return { previous };
    },
    onError: (error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toastFailure(UPDATE_FAILED, error);
    },
    onSuccess: (ticket) => {
      queryClient.setQueryData(key, ticket);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ticketKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.stats() });
    },
  });
}

export function useAddComment(ticketId: string) {
  const queryClient = useQueryClient();
  const key = ticketKeys.detail(ticketId);
  return useMutation({
    mutationFn: async (body: CreateCommentBody) =>
      (await callRoute(ticketsApi.comment, { params: { id: ticketId }, body })).comment,
    onSuccess: (comment, variables) => {
      queryClient.setQueryData<Ticket>(key, (ticket) =>
        ticket && !ticket.comments.some((c) => c.id === comment.id)
          ? { ...ticket, comments: [...ticket.comments, comment], updated_at: comment.created_at }
          : ticket,
      );
      // A reply moves the ticket up the lists ("Updated") and may change what the server derived from it.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.lists() });
      // Its files are listed with the ticket.
      if (variables.attachment_ids?.length) void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => toastFailure(COMMENT_FAILED, error),
  });
}
