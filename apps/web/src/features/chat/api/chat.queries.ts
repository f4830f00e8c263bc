import { chatApi } from "@cove/contract/chat.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { chatKeys } from "../../../lib/query-keys.ts";

// The chat calls treat any failure as an empty list; the screen shows the connection banner.

export function useChatSessions() {
  return useQuery({
    queryKey: chatKeys.sessions(),
    queryFn: async ({ signal }) => (await callRoute(chatApi.sessions, { signal })).sessions,
  });
}

export function useChatMessages(sessionId: string | null) {
  return useQuery({
    queryKey: chatKeys.messages(sessionId ?? ""),
    enabled: sessionId !== null,
    queryFn: async ({ signal }) =>
      (await callRoute(chatApi.messages, { params: { id: sessionId ?? "" }, signal })).messages,
  });
}

export function useChatStats() {
  return useQuery({
    queryKey: chatKeys.stats(),
    queryFn: ({ signal }) => callRoute(chatApi.stats, { signal }),
  });
}
