import {
  type AiResponseAnswer,
  type AiResponseBody,
  type AiSettings,
  aiResponseAnswer,
  aiSettingsAnswer,
  aiStatsAnswer,
  type UpdateAiSettingsBody,
} from "@cove/contract/ai.ts";
import { type DemoAnswer, demoAnswer } from "@cove/contract/demo.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const aiKeys = {
  all: ["ai"] as const,
  settings: () => [...aiKeys.all, "settings"] as const,
  stats: () => [...aiKeys.all, "stats"] as const,
};

/** POST /api/chat/ai-response. Anonymous: the public demo, answered from the demo organization's articles. */
export function askAssistant(
  body: AiResponseBody,
  opts: { anonymous?: boolean; signal?: AbortSignal } = {},
): Promise<AiResponseAnswer> {
  return apiRequest("/chat/ai-response", { method: "POST", body, schema: aiResponseAnswer, ...opts });
}

/** GET /api/demo: whether this server has the demo organization the public demo answers from. */
export function fetchDemo(signal?: AbortSignal): Promise<DemoAnswer> {
  return apiRequest("/demo", { schema: demoAnswer, signal, anonymous: true });
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
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: aiKeys.stats() }),
  });
}
