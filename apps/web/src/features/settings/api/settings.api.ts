import { routePath } from "@cove/contract/routes.ts";
import {
  apiKeysApi,
  type CreateApiKeyBody,
  organizationExportApi,
  settingsApi,
  type UpdateEmailBody,
  type UpdateGeneralBody,
} from "@cove/contract/settings.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

const generalKey = ["settings", "general"] as const;
const emailKey = ["settings", "email"] as const;
const keysKey = ["settings", "api-keys"] as const;
const exportKey = ["settings", "export"] as const;

export function useGeneralSettings() {
  return useQuery({
    queryKey: generalKey,
    queryFn: ({ signal }) => callRoute(settingsApi.general, { signal }),
  });
}

export function useUpdateGeneral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGeneralBody) => callRoute(settingsApi.updateGeneral, { body }),
    onSuccess: (data) => {
      queryClient.setQueryData(generalKey, data);
      void queryClient.invalidateQueries({ queryKey: ["help"] });
    },
  });
}

export function useEmailSettings() {
  return useQuery({
    queryKey: emailKey,
    queryFn: ({ signal }) => callRoute(settingsApi.email, { signal }),
  });
}

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateEmailBody) => callRoute(settingsApi.updateEmail, { body }),
    onSuccess: (data) => queryClient.setQueryData(emailKey, data),
  });
}

export function useApiKeys() {
  return useQuery({
    queryKey: keysKey,
    queryFn: ({ signal }) => callRoute(apiKeysApi.list, { signal }),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => callRoute(apiKeysApi.create, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute(apiKeysApi.revoke, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysKey }),
  });
}

/** The latest export; polled every second while its job runs, so the progress bar moves. */
export function useLatestExport() {
  return useQuery({
    queryKey: exportKey,
    queryFn: ({ signal }) => callRoute(organizationExportApi.latest, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.export?.status;
      return status === "queued" || status === "running" ? 1000 : false;
    },
  });
}

export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(organizationExportApi.start, {}),
    onSuccess: (data) => queryClient.setQueryData(exportKey, data),
  });
}

/** Downloads a finished export (lib/download.ts: fetched with the session's token, handed to the browser). */
export function downloadExport(id: string): Promise<void> {
  return downloadWithSession(
    routePath(organizationExportApi.download, { id }).slice("/api".length),
    "cove-export.zip",
    "The export could not be downloaded. Start a new one and try again.",
  );
}

export function useDeleteOrganization() {
  return useMutation({
    mutationFn: (confirm: string) => callRoute(settingsApi.deleteOrganization, { body: { confirm } }),
  });
}

/** An organization's public branding: its help center's logo and colour. */
export function useBranding(orgSlug: string) {
  return useQuery({
    queryKey: ["help", orgSlug, "branding"],
    queryFn: ({ signal }) => callRoute(settingsApi.branding, { params: { orgSlug }, signal, anonymous: true }),
    enabled: orgSlug !== "",
  });
}
