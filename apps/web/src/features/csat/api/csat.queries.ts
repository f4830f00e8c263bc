import { csatStatsAnswer } from "@cove/contract/csat.ts";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { csatStatsKey } from "../../../lib/query-keys.ts";

export function useCsatStats() {
  return useQuery({
    queryKey: csatStatsKey,
    queryFn: ({ signal }) => apiRequest("/csat/stats", { schema: csatStatsAnswer, signal }),
  });
}
