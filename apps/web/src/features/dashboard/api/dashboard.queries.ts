import { organizationsApi } from "@cove/contract/tickets.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { organizationStatsKey } from "../../../lib/query-keys.ts";

export function useOrganizationStats() {
  return useQuery({
    queryKey: organizationStatsKey,
    queryFn: ({ signal }) => callRoute(organizationsApi.stats, { signal }),
  });
}
