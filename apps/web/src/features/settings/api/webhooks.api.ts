import { type CreateWebhookBody, type UpdateWebhookBody, webhooksApi } from "@cove/contract/webhooks.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

/** Settings > Integrations: webhooks and Slack (admins). */
const webhooksKey = ["settings", "webhooks"] as const;
const deliveriesKey = (id: string) => ["settings", "webhooks", id, "deliveries"] as const;

export function useWebhooks() {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: ({ signal }) => callRoute(webhooksApi.list, { signal }),
  });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => callRoute(webhooksApi.create, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookBody }) =>
      callRoute(webhooksApi.update, { params: { id }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute(webhooksApi.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useRollSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute(webhooksApi.rollSecret, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** The delivery log of one endpoint; refreshed every few seconds while it is open, so retries show. */
export function useDeliveries(id: string) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: ({ signal }) => callRoute(webhooksApi.deliveries, { params: { id }, signal }),
    refetchInterval: 5000,
  });
}

export function useSendTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute(webhooksApi.sendTest, { params: { id } }),
    onSettled: (_d, _e, id) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      callRoute(webhooksApi.redeliver, { params: { id, deliveryId } }),
    onSettled: (_d, _e, { id }) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
