import { notificationListAnswer, unreadCountAnswer } from "@cove/contract/notifications.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { notificationsKey } from "../../../lib/query-keys.ts";

/** The bell's list and unread count; new notifications arrive over the realtime socket (lib/live-updates.ts). */
export function useNotifications() {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => apiRequest("/notifications", { schema: notificationListAnswer, signal }),
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "all") =>
      apiRequest(id === "all" ? "/notifications/read-all" : `/notifications/${encodeURIComponent(id)}/read`, {
        method: "POST",
        schema: unreadCountAnswer,
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
