import { securitySettings, type UpdateSecurityBody } from "@cove/contract/security.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

const securityKey = ["settings", "security"] as const;

/** GET /settings/security (admins): who must use two-factor sign-in. */
export function useSecuritySettings() {
  return useQuery({
    queryKey: securityKey,
    queryFn: ({ signal }) => apiRequest("/settings/security", { schema: securitySettings, signal }),
  });
}

export function useUpdateSecurity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSecurityBody) =>
      apiRequest("/settings/security", { method: "PUT", body, schema: securitySettings }),
    onSuccess: (data) => queryClient.setQueryData(securityKey, data),
  });
}
