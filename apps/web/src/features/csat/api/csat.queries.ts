import { csatApi } from "@cove/contract/csat.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { csatStatsKey } from "../../../lib/query-keys.ts";

export function useCsatStats() {
  return useQuery({
    queryKey: csatStatsKey,
    queryFn: ({ signal }) => callRoute(csatApi.stats, { signal }),
  });
}
