import {
  applyThresholdBody,
  notCoveredAnswer,
  notCoveredBody,
  questionSuggestionsAnswer,
  reviewSuggestionsBody,
  suggestionReviewedAnswer,
  suggestionsReviewedAnswer,
  thresholdProposal,
  thresholdQuery,
} from "@cove/contract/ai.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import { errors } from "./ai.routes.ts";
import * as service from "./ai.service.ts";
import { acceptOne, markNotCovered, reviewSuggestions } from "./learning.ts";
import { listSuggestions } from "./suggestions.ts";
import { applyProposal, thresholdProposal as proposeFor } from "./threshold.ts";

/**
 * The assistant learning each organization (docs/product.md, "The assistant learns"): suggested example questions
 * and their review, questions no article covers, and the organization's own hand-off threshold.
 */
export async function learningRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post("/api/ai/unanswered/not-covered", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Say that no article covers these unanswered questions (administrators)",
      description:
        "They leave the list and count as questions the assistant should hand off (the threshold's history). Each " +
        "must be one of the organization's unanswered questions, or nothing is marked (404).",
      body: notCoveredBody,
      response: { 200: notCoveredAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => markNotCovered(ctx, req.body.questions)),
  });

  app.get("/api/ai/suggestions", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "Example questions suggested by agents' replies that linked an article",
      response: { 200: questionSuggestionsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, listSuggestions),
  });

  app.post("/api/ai/suggestions/:id/accept", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Add a suggested question to its article's example questions (administrators)",
      params: idParams,
      response: { 200: suggestionReviewedAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => acceptOne(ctx, recordId("Suggestion", req.params.id))),
  });

  app.post("/api/ai/suggestions/review", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Accept or dismiss several suggested questions at once (administrators)",
      description:
        "Every id must be a pending suggestion of the organization, or nothing is done (404). Accepting skips a " +
        "near-duplicate of a question its article already has (it is dismissed) and keeps pending one whose article " +
        "is full (KB_QUESTIONS_MAX example questions), saying so.",
      body: reviewSuggestionsBody,
      response: { 200: suggestionsReviewedAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => reviewSuggestions(ctx, req.body)),
  });

  app.post("/api/ai/suggestions/:id/dismiss", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Dismiss a suggested question (administrators)",
      params: idParams,
      response: { 200: suggestionReviewedAnswer, ...errors },
    },
    handler: (req) =>
      inRequest(app, req, (ctx) => service.dismissSuggestion(ctx, recordId("Suggestion", req.params.id))),
  });

  app.get("/api/ai/threshold", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "The hand-off threshold proposed from the organization's labelled questions, with its trade-off",
      description:
        "The highest threshold that hands off at most `target` of the questions an article covered (default: the " +
        "target last applied), with the shares of answerable and uncovered questions each threshold hands off. " +
        "With too little history `proposed` is null and the message says so.",
      querystring: thresholdQuery,
      response: { 200: thresholdProposal, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => proposeFor(ctx, req.query.target)),
  });

  app.post("/api/ai/threshold/apply", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Apply the proposed hand-off threshold for a target (administrators)",
      body: applyThresholdBody,
      response: { 200: thresholdProposal, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => applyProposal(ctx, req.body.target)),
  });
}
