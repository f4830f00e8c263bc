import { organizationStats } from "@cove/contract/tickets.ts";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { organizationStatsKey } from "../../../lib/query-keys.ts";

export function useOrganizationStats() {
  return useQuery({
    queryKey: organizationStatsKey,
    queryFn: ({ signal }) => apiRequest("/organizations/stats", { schema: organizationStats, signal }),
  });
}
