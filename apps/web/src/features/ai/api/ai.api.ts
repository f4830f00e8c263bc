import {
  type AiFeedbackBody,
  type AiResponseAnswer,
  type AiResponseBody,
  type AiSettings,
  type AttachUnansweredBody,
  aiApi,
  learningApi,
  type NewArticleFromUnansweredBody,
  type NotCoveredBody,
  type ReviewSuggestionsBody,
  type UpdateAiSettingsBody,
} from "@cove/contract/ai.ts";
import { type DemoAnswer, demoApi } from "@cove/contract/demo.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

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
  await callRoute(aiApi.feedback, { body, ...opts });
}

/** The questions the assistant could not answer in the last 30 days, grouped. */
export function useUnanswered() {
  return useQuery({
    queryKey: aiKeys.unanswered(),
    queryFn: ({ signal }) => callRoute(aiApi.unanswered, { signal }),
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
      mutationFn: (body: AttachUnansweredBody) => callRoute(aiApi.attachUnanswered, { body }),
      onSuccess,
    }),
    newArticle: useMutation({
      mutationFn: (body: NewArticleFromUnansweredBody) => callRoute(aiApi.newArticle, { body }),
      onSuccess,
    }),
  };
}

/** Example questions suggested by agents' replies that linked an article. */
export function useSuggestions() {
  return useQuery({
    queryKey: aiKeys.suggestions(),
    queryFn: ({ signal }) => callRoute(learningApi.suggestions, { signal }),
  });
}

/** Accept (the question joins its article) or dismiss a suggestion; either way it leaves the list. */
export function useReviewSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "accept" | "dismiss" }) =>
      callRoute(action === "accept" ? learningApi.acceptSuggestion : learningApi.dismissSuggestion, {
        params: { id },
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
    mutationFn: (body: ReviewSuggestionsBody) => callRoute(learningApi.reviewSuggestions, { body }),
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
    mutationFn: (body: NotCoveredBody) => callRoute(learningApi.notCovered, { body }),
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
    queryFn: ({ signal }) => callRoute(learningApi.threshold, { query: { target }, signal }),
  });
}

/** Apply the proposal: the assistant's threshold becomes it. */
export function useApplyThreshold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: number) => callRoute(learningApi.applyThreshold, { body: { target } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: aiKeys.all }),
  });
}

/** POST /api/chat/ai-response. Anonymous: the public demo, answered from the demo organization's articles. */
export function askAssistant(
  body: AiResponseBody,
  opts: { anonymous?: boolean; signal?: AbortSignal } = {},
): Promise<AiResponseAnswer> {
  return callRoute(aiApi.ask, { body, ...opts });
}

/** GET /api/demo: whether this server has the demo organization the public demo answers from. */
export function fetchDemo(signal?: AbortSignal): Promise<DemoAnswer> {
  return callRoute(demoApi.status, { signal, anonymous: true });
}

export function useAiSettings() {
  return useQuery({
    queryKey: aiKeys.settings(),
    queryFn: async ({ signal }): Promise<AiSettings> => (await callRoute(aiApi.settings, { signal })).settings,
  });
}

export function useAiStats() {
  return useQuery({
    queryKey: aiKeys.stats(),
    queryFn: ({ signal }) => callRoute(aiApi.stats, { signal }),
  });
}

export function useUpdateAiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateAiSettingsBody) => (await callRoute(aiApi.updateSettings, { body })).settings,
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
