import { learningApi } from "@cove/contract/ai.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./ai.service.ts";
import { acceptOne, markNotCovered, reviewSuggestions } from "./learning.ts";
import { listSuggestions } from "./suggestions.ts";
import { applyProposal, thresholdProposal as proposeFor } from "./threshold.ts";

/**
 * The assistant learning each organization (the contract's learningApi; docs/product.md, "The assistant learns"):
 * suggested example questions and their review, questions no article covers, and the organization's own hand-off
 * threshold.
 */
export async function learningRoutes(app: FastifyInstance) {
  addRoute(app, learningApi.notCovered, {
    handler: (req) => inRequest(app, req, (ctx) => markNotCovered(ctx, req.body.questions)),
  });

  addRoute(app, learningApi.suggestions, {
    handler: (req) => inRequest(app, req, listSuggestions),
  });

  addRoute(app, learningApi.acceptSuggestion, {
    handler: (req) => inRequest(app, req, (ctx) => acceptOne(ctx, recordId("Suggestion", req.params.id))),
  });

  addRoute(app, learningApi.reviewSuggestions, {
    handler: (req) => inRequest(app, req, (ctx) => reviewSuggestions(ctx, req.body)),
  });

  addRoute(app, learningApi.dismissSuggestion, {
    handler: (req) =>
      inRequest(app, req, (ctx) => service.dismissSuggestion(ctx, recordId("Suggestion", req.params.id))),
  });

  addRoute(app, learningApi.threshold, {
    handler: (req) => inRequest(app, req, (ctx) => proposeFor(ctx, req.query.target)),
  });

  addRoute(app, learningApi.applyThreshold, {
    handler: (req) => inRequest(app, req, (ctx) => applyProposal(ctx, req.body.target)),
  });
}
