import { chatMessageListAnswer, chatSessionListAnswer, chatStatsAnswer } from "@cove/contract/chat.ts";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { chatKeys } from "../../../lib/query-keys.ts";

// The chat calls treat any failure as an empty list; the screen shows the connection banner.

export function useChatSessions() {
  return useQuery({
    queryKey: chatKeys.sessions(),
    queryFn: async ({ signal }) =>
      (await apiRequest("/chat/sessions", { schema: chatSessionListAnswer, signal })).sessions,
  });
}

export function useChatMessages(sessionId: string | null) {
  return useQuery({
    queryKey: chatKeys.messages(sessionId ?? ""),
    enabled: sessionId !== null,
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`/chat/sessions/${encodeURIComponent(sessionId ?? "")}/messages`, {
          schema: chatMessageListAnswer,
          signal,
        })
      ).messages,
  });
}

export function useChatStats() {
  return useQuery({
    queryKey: chatKeys.stats(),
    queryFn: ({ signal }) => apiRequest("/chat/stats", { schema: chatStatsAnswer, signal }),
  });
}
