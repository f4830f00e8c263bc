import { securityApi, type UpdateSecurityBody } from "@cove/contract/security.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

const securityKey = ["settings", "security"] as const;

/** GET /settings/security (admins): who must use two-factor sign-in. */
export function useSecuritySettings() {
  return useQuery({
    queryKey: securityKey,
    queryFn: ({ signal }) => callRoute(securityApi.settings, { signal }),
  });
}

export function useUpdateSecurity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSecurityBody) => callRoute(securityApi.updateSettings, { body }),
    onSuccess: (data) => queryClient.setQueryData(securityKey, data),
  });
}
