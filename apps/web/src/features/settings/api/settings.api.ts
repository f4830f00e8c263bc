import { billingMessage } from "@cove/contract/billing.ts";
import {
  apiKey,
  apiKeyListAnswer,
  branding,
  type CreateApiKeyBody,
  createApiKeyAnswer,
  dataExportAnswer,
  emailSettings,
  generalSettings,
  type UpdateEmailBody,
  type UpdateGeneralBody,
} from "@cove/contract/settings.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

const generalKey = ["settings", "general"] as const;
const emailKey = ["settings", "email"] as const;
const keysKey = ["settings", "api-keys"] as const;
const exportKey = ["settings", "export"] as const;

export function useGeneralSettings() {
  return useQuery({
    queryKey: generalKey,
    queryFn: ({ signal }) => apiRequest("/settings/general", { schema: generalSettings, signal }),
  });
}

export function useUpdateGeneral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGeneralBody) =>
      apiRequest("/settings/general", { method: "PUT", body, schema: generalSettings }),
    onSuccess: (data) => {
      queryClient.setQueryData(generalKey, data);
      void queryClient.invalidateQueries({ queryKey: ["help"] });
    },
  });
}

export function useEmailSettings() {
  return useQuery({
    queryKey: emailKey,
    queryFn: ({ signal }) => apiRequest("/settings/email", { schema: emailSettings, signal }),
  });
}

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateEmailBody) =>
      apiRequest("/settings/email", { method: "PUT", body, schema: emailSettings }),
    onSuccess: (data) => queryClient.setQueryData(emailKey, data),
  });
}

export function useApiKeys() {
  return useQuery({
    queryKey: keysKey,
    queryFn: ({ signal }) => apiRequest("/settings/api-keys", { schema: apiKeyListAnswer, signal }),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) =>
      apiRequest("/settings/api-keys", { method: "POST", body, schema: createApiKeyAnswer }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/settings/api-keys/${encodeURIComponent(id)}`, {
        method: "DELETE",
        schema: z.object({ api_key: apiKey }),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}

/** The latest export; polled every second while its job runs, so the progress bar moves. */
export function useLatestExport() {
  return useQuery({
    queryKey: exportKey,
    queryFn: ({ signal }) => apiRequest("/organization/export", { schema: dataExportAnswer, signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.export?.status;
      return status === "queued" || status === "running" ? 1000 : false;
    },
  });
}

export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("/organization/export", { method: "POST", schema: dataExportAnswer }),
    onSuccess: (data) => queryClient.setQueryData(exportKey, data),
  });
}

/** Downloads a finished export (lib/download.ts: fetched with the session's token, handed to the browser). */
export function downloadExport(id: string): Promise<void> {
  return downloadWithSession(
    `/organization/export/${encodeURIComponent(id)}/download`,
    "cove-export.zip",
    "The export could not be downloaded. Start a new one and try again.",
  );
}

export function useDeleteOrganization() {
  return useMutation({
    mutationFn: (confirm: string) =>
      apiRequest("/organization", { method: "DELETE", body: { confirm }, schema: billingMessage }),
  });
}

/** An organization's public branding: its help center's logo and colour. */
export function useBranding(orgSlug: string) {
  return useQuery({
    queryKey: ["help", orgSlug, "branding"],
    queryFn: ({ signal }) =>
      apiRequest(`/public/${encodeURIComponent(orgSlug)}/branding`, { schema: branding, signal, anonymous: true }),
    enabled: orgSlug !== "",
  });
}
