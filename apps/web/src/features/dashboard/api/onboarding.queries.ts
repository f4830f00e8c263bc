import { type OnboardingAnswer, onboardingApi } from "@cove/contract/onboarding.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

const onboardingKey = ["onboarding"] as const;

/**
 * The getting-started checklist. Asked again each time the dashboard opens (no staleness allowed): the owner comes
 * back from inviting someone or writing an article and expects the tick.
 */
export function useOnboarding() {
  return useQuery({
    queryKey: onboardingKey,
    queryFn: ({ signal }) => callRoute(onboardingApi.get, { signal }),
    staleTime: 0,
  });
}

/** Dismisses the checklist for the signed-in member; it goes away at once and stays away. */
export function useDismissOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(onboardingApi.setDismissed, { body: { dismissed: true } }),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: onboardingKey });
      const before = queryClient.getQueryData<OnboardingAnswer>(onboardingKey);
      if (before) queryClient.setQueryData<OnboardingAnswer>(onboardingKey, { ...before, dismissed: true });
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(onboardingKey, context.before);
    },
    onSuccess: (data) => queryClient.setQueryData(onboardingKey, data),
  });
}
