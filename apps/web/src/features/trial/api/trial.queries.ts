import { TRIAL_STATUS_REFETCH_MS } from "@cove/contract/constants.ts";
import { trialStatus } from "@cove/contract/trial.ts";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const trialStatusKey = ["trial", "status"] as const;

export function useTrialStatus() {
  return useQuery({
    queryKey: trialStatusKey,
    queryFn: ({ signal }) => apiRequest("/trial/status", { schema: trialStatus, signal }),
    // The one query that polls (spec: every 60 s), so the days left stay right on a dashboard left open.
    refetchInterval: TRIAL_STATUS_REFETCH_MS,
  });
}
