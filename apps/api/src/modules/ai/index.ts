// The ai module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { aiRoutes } from "./ai.routes.ts";
import { learningRoutes } from "./learning.routes.ts";
import { registerSuggestionHandlers } from "./suggestions.ts";

export {
  feedbackOf,
  loggedQuestion,
  markAnswerWrong,
  savedGreeting,
  saveFeedback,
  unansweredBetween,
} from "./ai.queries.ts";
export { answerQuestion, prepareAssistant } from "./ai.service.ts";
export { EMBEDDED_PROVIDER, embeddedProvider } from "./embedded.provider.ts";
export { loadEncoderCalibration } from "./encoder-calibration.ts";
export { asksForPerson } from "./handoff-request.ts";
export { createOpenAiProvider } from "./openai.provider.ts";
export type { AiProvider } from "./provider.ts";
export { startSentenceEncoder } from "./sentence-encoder.ts";
export { learnsAutomatically, type Suggested, suggestFromAnswer, suggestQuestion } from "./suggestions.ts";
export { applyIfAutomatic } from "./threshold.ts";
export { groupQuestions } from "./unanswered.ts";
export { wordVectors } from "./word-vectors.ts";
export { lexicon } from "./wordnet.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof aiRoutes>[1]): Promise<void> {
  await app.register(aiRoutes, opts);
  await app.register(learningRoutes);
  registerSuggestionHandlers(app.events);
}
