import {
  type CreateWebhookBody,
  deliveryAnswer,
  deliveryListAnswer,
  type UpdateWebhookBody,
  webhookAnswer,
  webhookListAnswer,
  webhookWithSecretAnswer,
} from "@cove/contract/webhooks.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Settings > Integrations: webhooks and Slack (admins). */
const webhooksKey = ["settings", "webhooks"] as const;
const deliveriesKey = (id: string) => ["settings", "webhooks", id, "deliveries"] as const;
const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: ({ signal }) => apiRequest("/webhooks", { schema: webhookListAnswer, signal }),
  });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) =>
      apiRequest("/webhooks", { method: "POST", body, schema: webhookWithSecretAnswer }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookBody }) =>
      apiRequest(path(id), { method: "PUT", body, schema: webhookAnswer }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(path(id), { method: "DELETE", schema: webhookAnswer }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useRollSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`${path(id)}/roll-secret`, { method: "POST", schema: webhookWithSecretAnswer }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** The delivery log of one endpoint; refreshed every few seconds while it is open, so retries show. */
export function useDeliveries(id: string) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: ({ signal }) => apiRequest(`${path(id)}/deliveries`, { schema: deliveryListAnswer, signal }),
    refetchInterval: 5000,
  });
}

export function useSendTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`${path(id)}/test`, { method: "POST", schema: deliveryAnswer }),
    onSettled: (_d, _e, id) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      apiRequest(`${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {
        method: "POST",
        schema: deliveryAnswer,
      }),
    onSettled: (_d, _e, { id }) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
