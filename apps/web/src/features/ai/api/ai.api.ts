import {
  type AiFeedbackBody,
  type AiResponseAnswer,
  type AiResponseBody,
  type AiSettings,
  type AttachUnansweredBody,
  aiFeedbackAnswer,
  aiResponseAnswer,
  aiSettingsAnswer,
  aiStatsAnswer,
  aiUnansweredAnswer,
  type NewArticleFromUnansweredBody,
  type NotCoveredBody,
  notCoveredAnswer,
  questionSuggestionsAnswer,
  type ReviewSuggestionsBody,
  suggestionReviewedAnswer,
  suggestionsReviewedAnswer,
  thresholdProposal,
  type UpdateAiSettingsBody,
  unansweredReviewedAnswer,
} from "@cove/contract/ai.ts";
import { type DemoAnswer, demoApi } from "@cove/contract/demo.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, callRoute } from "../../../lib/api-client.ts";

export const aiKeys = {
  all: ["ai"] as const,
  settings: () => [...aiKeys.all, "settings"] as const,
  stats: () => [...aiKeys.all, "stats"] as const,
  unanswered: () => [...aiKeys.all, "unanswered"] as const,
  suggestions: () => [...aiKeys.all, "suggestions"] as const,
  threshold: (target: number) => [...aiKeys.all, "threshold", target] as const,
};

/** POST /api/chat/ai-feedback: thumbs up or down on an answer. Anonymous: an answer of the public demo. */
export async function rateAnswer(body: AiFeedbackBody, opts: { anonymous?: boolean } = {}): Promise<void> {
  await apiRequest("/chat/ai-feedback", { method: "POST", body, schema: aiFeedbackAnswer, ...opts });
}

/** The questions the assistant could not answer in the last 30 days, grouped. */
export function useUnanswered() {
  return useQuery({
    queryKey: aiKeys.unanswered(),
    queryFn: ({ signal }) => apiRequest("/ai/unanswered", { schema: aiUnansweredAnswer, signal }),
  });
}

/** Attach a group to an article, or start a draft article from it; either way the group leaves the list. */
export function useReviewUnanswered() {
  const queryClient = useQueryClient();
  const onSuccess = () => {
    void queryClient.invalidateQueries({ queryKey: aiKeys.unanswered() });
    void queryClient.invalidateQueries({ queryKey: ["kb"] });
  };
  return {
    attach: useMutation({
      mutationFn: (body: AttachUnansweredBody) =>
        apiRequest("/ai/unanswered/attach", { method: "POST", body, schema: unansweredReviewedAnswer }),
      onSuccess,
    }),
    newArticle: useMutation({
      mutationFn: (body: NewArticleFromUnansweredBody) =>
        apiRequest("/ai/unanswered/new-article", { method: "POST", body, schema: unansweredReviewedAnswer }),
      onSuccess,
    }),
  };
}

/** Example questions suggested by agents' replies that linked an article. */
export function useSuggestions() {
  return useQuery({
    queryKey: aiKeys.suggestions(),
    queryFn: ({ signal }) => apiRequest("/ai/suggestions", { schema: questionSuggestionsAnswer, signal }),
  });
}

/** Accept (the question joins its article) or dismiss a suggestion; either way it leaves the list. */
export function useReviewSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "accept" | "dismiss" }) =>
      apiRequest(`/ai/suggestions/${encodeURIComponent(id)}/${action}`, {
        method: "POST",
        schema: suggestionReviewedAnswer,
      }),
    onSuccess: (_done, { action }) => {
      void queryClient.invalidateQueries({ queryKey: aiKeys.suggestions() });
      if (action === "accept") {
        void queryClient.invalidateQueries({ queryKey: aiKeys.unanswered() });
        void queryClient.invalidateQueries({ queryKey: ["kb"] });
      }
    },
  });
}

/** Accept or dismiss several suggestions at once (POST /api/ai/suggestions/review). */
export function useReviewSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewSuggestionsBody) =>
      apiRequest("/ai/suggestions/review", { method: "POST", body, schema: suggestionsReviewedAnswer }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: aiKeys.suggestions() });
      void queryClient.invalidateQueries({ queryKey: aiKeys.unanswered() });
      void queryClient.invalidateQueries({ queryKey: ["kb"] });
    },
  });
}

/** Say no article covers a group of unanswered questions: it leaves the list, and labels the threshold's history. */
export function useMarkNotCovered() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotCoveredBody) =>
      apiRequest("/ai/unanswered/not-covered", { method: "POST", body, schema: notCoveredAnswer }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: aiKeys.unanswered() });
      // A new label: the proposal changes, and with "adjust automatically" on, so may the threshold.
      void queryClient.invalidateQueries({ queryKey: [...aiKeys.all, "threshold"] });
      void queryClient.invalidateQueries({ queryKey: aiKeys.settings() });
    },
  });
}

/** The hand-off threshold proposed from the organization's labelled questions for a target share of false hand-offs. */
export function useThresholdProposal(target: number) {
  return useQuery({
    queryKey: aiKeys.threshold(target),
    queryFn: ({ signal }) =>
      apiRequest(`/ai/threshold?target=${encodeURIComponent(target)}`, { schema: thresholdProposal, signal }),
  });
}

/** Apply the proposal: the assistant's threshold becomes it. */
export function useApplyThreshold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: number) =>
      apiRequest("/ai/threshold/apply", { method: "POST", body: { target }, schema: thresholdProposal }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: aiKeys.all }),
  });
}

/** POST /api/chat/ai-response. Anonymous: the public demo, answered from the demo organization's articles. */
export function askAssistant(
  body: AiResponseBody,
  opts: { anonymous?: boolean; signal?: AbortSignal } = {},
): Promise<AiResponseAnswer> {
  return apiRequest("/chat/ai-response", { method: "POST", body, schema: aiResponseAnswer, ...opts });
}

/** GET /api/demo: whether this server has the demo organization the public demo answers from. */
export function fetchDemo(signal?: AbortSignal): Promise<DemoAnswer> {
  return callRoute(demoApi.status, { signal, anonymous: true });
}

export function useAiSettings() {
  return useQuery({
    queryKey: aiKeys.settings(),
    queryFn: async ({ signal }): Promise<AiSettings> =>
      (await apiRequest("/ai/settings", { schema: aiSettingsAnswer, signal })).settings,
  });
}

export function useAiStats() {
  return useQuery({
    queryKey: aiKeys.stats(),
    queryFn: ({ signal }) => apiRequest("/ai/stats", { schema: aiStatsAnswer, signal }),
  });
}

export function useUpdateAiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateAiSettingsBody) =>
      (await apiRequest("/ai/settings", { method: "PUT", body, schema: aiSettingsAnswer })).settings,
    onSuccess: (settings) => queryClient.setQueryData(aiKeys.settings(), settings),
  });
}

/** The test console's questions: signed in, so answered from this organization's articles; they are logged too. */
export function useAskAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AiResponseBody) => askAssistant(body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: aiKeys.stats() });
      void queryClient.invalidateQueries({ queryKey: aiKeys.unanswered() });
    },
  });
}
