import { TRIAL_STATUS_REFETCH_MS } from "@cove/contract/constants.ts";
import { trialApi } from "@cove/contract/trial.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

export const trialStatusKey = ["trial", "status"] as const;

export function useTrialStatus() {
  return useQuery({
    queryKey: trialStatusKey,
    queryFn: ({ signal }) => callRoute(trialApi.status, { signal }),
    // The one query that polls (spec: every 60 s), so the days left stay right on a dashboard left open.
    refetchInterval: TRIAL_STATUS_REFETCH_MS,
  });
}
