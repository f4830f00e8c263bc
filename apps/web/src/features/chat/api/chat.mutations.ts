import {
  CHAT_CLOSE_FAILED,
  CHAT_SEND_FAILED,
  type ChatMessage,
  chatClosedAnswer,
  chatMessageAnswer,
  chatSessionAnswer,
  chatTicketAnswer,
} from "@cove/contract/chat.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";
import { chatKeys, ticketKeys } from "../../../lib/query-keys.ts";

const path = (id: string) => `/chat/sessions/${encodeURIComponent(id)}`;

/** The spec's fixed alert, with the server's reason underneath when it gave one. */
function toastFailure(title: string, error: unknown) {
  toast.error(title, { description: error instanceof ApiError ? error.message : undefined });
}

export function useSendChatMessage(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (message: string) =>
      (
        await apiRequest(`${path(sessionId)}/messages`, {
          method: "POST",
          body: { message },
          schema: chatMessageAnswer,
        })
      ).message,
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(sessionId), (list) =>
        list?.some((m) => m.id === message.id) ? list : [...(list ?? []), message],
      );
      void queryClient.invalidateQueries({ queryKey: chatKeys.sessions() });
      void queryClient.invalidateQueries({ queryKey: chatKeys.stats() });
    },
    onError: (error) => toastFailure(CHAT_SEND_FAILED, error),
  });
}

export function useCloseChatSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest(path(sessionId), { method: "PUT", body: { status: "closed" }, schema: chatClosedAnswer }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
    },
    onError: (error) => toastFailure(CHAT_CLOSE_FAILED, error),
  });
}

export function useTakeChatSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest(`${path(sessionId)}/take`, { method: "POST", schema: chatSessionAnswer }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: chatKeys.sessions() }),
    onError: (error) => toastFailure("Failed to take the chat", error),
  });
}

/** "Create ticket": the conversation becomes a ticket with its transcript. */
export function useChatToTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest(`${path(sessionId)}/ticket`, { method: "POST", schema: chatTicketAnswer }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
    },
    onError: (error) => toastFailure("Failed to create a ticket from this chat", error),
  });
}
