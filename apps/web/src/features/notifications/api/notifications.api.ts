import { notificationsApi } from "@cove/contract/notifications.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { notificationsKey } from "../../../lib/query-keys.ts";

/** The bell's list and unread count; new notifications arrive over the realtime socket (lib/live-updates.ts). */
export function useNotifications() {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => callRoute(notificationsApi.list, { signal }),
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "all") =>
      id === "all"
        ? callRoute(notificationsApi.markAllRead, {})
        : callRoute(notificationsApi.markRead, { params: { id } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
