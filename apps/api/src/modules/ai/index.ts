// The ai module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export {
  feedbackOf,
  loggedQuestion,
  markAnswerWrong,
  savedGreeting,
  saveFeedback,
  unansweredBetween,
} from "./ai.queries.ts";
export { aiRoutes } from "./ai.routes.ts";
export { answerQuestion, prepareAssistant } from "./ai.service.ts";
export { embeddedProvider } from "./embedded.provider.ts";
export { loadEncoderCalibration } from "./encoder-calibration.ts";
export { asksForPerson } from "./handoff-request.ts";
export { learningRoutes } from "./learning.routes.ts";
export { createOpenAiProvider } from "./openai.provider.ts";
export type { AiProvider } from "./provider.ts";
export { startSentenceEncoder } from "./sentence-encoder.ts";
export {
  learnsAutomatically,
  registerSuggestionHandlers,
  type Suggested,
  suggestFromAnswer,
  suggestQuestion,
} from "./suggestions.ts";
export { applyIfAutomatic } from "./threshold.ts";
export { groupQuestions } from "./unanswered.ts";
export { wordVectors } from "./word-vectors.ts";
export { lexicon } from "./wordnet.ts";
