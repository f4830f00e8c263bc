import { messageAnswer } from "@cove/contract/auth.ts";
import {
  type ConnectMailboxBody,
  type MailboxListAnswer,
  mailboxAnswer,
  mailboxListAnswer,
  type UpdateMailboxBody,
} from "@cove/contract/mailboxes.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const mailboxesKey = ["email", "mailboxes"] as const;

/** How often the list is read again: every 2 s while an import runs (the progress bar), else every 30 s. */
export function mailboxRefresh(data: MailboxListAnswer | undefined): number {
  return data?.mailboxes.some((m) => m.status === "importing") ? 2_000 : 30_000;
}

/** The connected mailboxes and their import's progress (admins). */
export function useMailboxes() {
  return useQuery({
    queryKey: mailboxesKey,
    queryFn: ({ signal }) => apiRequest("/email/mailboxes", { schema: mailboxListAnswer, signal }),
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
  return useRefreshAfter((body: ConnectMailboxBody) =>
    apiRequest("/email/mailboxes", { method: "POST", body, schema: mailboxAnswer }),
  );
}

export function useUpdateMailbox() {
  return useRefreshAfter(({ id, body }: { id: string; body: UpdateMailboxBody }) =>
    apiRequest(`/email/mailboxes/${encodeURIComponent(id)}`, { method: "PUT", body, schema: mailboxAnswer }),
  );
}

export type MailboxAction = "pause" | "resume" | "cancel";

export function useMailboxAction() {
  return useRefreshAfter(({ id, action }: { id: string; action: MailboxAction }) =>
    apiRequest(`/email/mailboxes/${encodeURIComponent(id)}/${action}`, { method: "POST", schema: mailboxAnswer }),
  );
}

export function useRemoveMailbox() {
  return useRefreshAfter((id: string) =>
    apiRequest(`/email/mailboxes/${encodeURIComponent(id)}`, { method: "DELETE", schema: messageAnswer }),
  );
}
