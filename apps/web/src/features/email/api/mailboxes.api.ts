import {
  type ConnectMailboxBody,
  type MailboxListAnswer,
  mailboxesApi,
  type UpdateMailboxBody,
} from "@cove/contract/mailboxes.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

export const mailboxesKey = ["email", "mailboxes"] as const;

/** How often the list is read again: every 2 s while an import runs (the progress bar), else every 30 s. */
export function mailboxRefresh(data: MailboxListAnswer | undefined): number {
  return data?.mailboxes.some((m) => m.status === "importing") ? 2_000 : 30_000;
}

/** The connected mailboxes and their import's progress (admins). */
export function useMailboxes() {
  return useQuery({
    queryKey: mailboxesKey,
    queryFn: ({ signal }) => callRoute(mailboxesApi.list, { signal }),
    refetchInterval: (query) => mailboxRefresh(query.state.data),
  });
}

function useRefreshAfter<T, V>(fn: (vars: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailboxesKey }),
  });
}

export function useConnectMailbox() {
  return useRefreshAfter((body: ConnectMailboxBody) => callRoute(mailboxesApi.connect, { body }));
}

export function useUpdateMailbox() {
  return useRefreshAfter(({ id, body }: { id: string; body: UpdateMailboxBody }) =>
    callRoute(mailboxesApi.update, { params: { id }, body }),
  );
}

export type MailboxAction = "pause" | "resume" | "cancel";

export function useMailboxAction() {
  return useRefreshAfter(({ id, action }: { id: string; action: MailboxAction }) =>
    callRoute(mailboxesApi[action], { params: { id } }),
  );
}

export function useRemoveMailbox() {
  return useRefreshAfter((id: string) => callRoute(mailboxesApi.remove, { params: { id } }));
}
