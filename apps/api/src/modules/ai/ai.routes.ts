import {
  aiFeedbackAnswer,
  aiFeedbackBody,
  aiResponseAnswer,
  aiResponseBody,
  aiSettingsAnswer,
  aiStatsAnswer,
  aiUnansweredAnswer,
  attachUnansweredBody,
  newArticleFromUnansweredBody,
  unansweredReviewedAnswer,
  updateAiSettingsBody,
} from "@cove/contract/ai.ts";
import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest, optionalPrincipal } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { findDemoOrganization } from "../demo/index.ts";
import * as service from "./ai.service.ts";
import type { AiProvider } from "./provider.ts";

export const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** Public (signed-out) questions per address: enough for a person trying the demo, not for a script. */
export const PUBLIC_ASKS_PER_MINUTE = 20;

export async function aiRoutes(fastify: FastifyInstance, opts: { provider: AiProvider }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The console's questions and ratings are its organization's (refused while read-only); the public demo's are Cove's.
  const consoleOrg = async (req: FastifyRequest) => (await optionalPrincipal(app, req))?.orgId ?? null;

  app.post("/api/chat/ai-response", {
    config: {
      access: "public",
      writesTo: consoleOrg,
      rateLimit: {
        max: PUBLIC_ASKS_PER_MINUTE,
        timeWindow: "1 minute",
        // Staff calls carry a token (checked in the handler; a bad one is refused), so only visitors are limited.
        allowList: (req) => req.headers.authorization !== undefined,
      },
    },
    schema: {
      tags: ["ai"],
      summary: "Ask the AI assistant",
      description:
        "With a staff bearer token the assistant answers from that organization's published articles (the test " +
        "console); without one, from the demo organization's (the public /ai-test page), rate-limited per address.",
      body: aiResponseBody,
      response: { 200: aiResponseAnswer, ...errors },
    },
    handler: async (req) => {
      const principal = await optionalPrincipal(app, req);
      const orgId = principal?.orgId ?? (await findDemoOrganization(app.db))?.id;
      if (!orgId) throw new AppError("DEMO_UNAVAILABLE", DEMO_UNAVAILABLE);
      const channel = principal ? "console" : "demo";
      return service.answerQuestion(
        { db: app.db, orgId, provider: opts.provider, channel, metrics: app.metrics },
        req.body,
      );
    },
  });

  app.post("/api/chat/ai-feedback", {
    config: {
      access: "public",
      writesTo: consoleOrg,
      rateLimit: {
        max: PUBLIC_ASKS_PER_MINUTE,
        timeWindow: "1 minute",
        allowList: (req) => req.headers.authorization !== undefined,
      },
    },
    schema: {
      tags: ["ai"],
      summary: "Say whether an answer of the assistant helped",
      description:
        "Thumbs up or down on an answer (its answerId). With a staff bearer token, an answer of that organization; " +
        "without one, an answer of the public demo (/ai-test). A thumbs down puts the question on the team's " +
        "unanswered list. Answers in a live chat are rated by its visitor, in the chat.",
      body: aiFeedbackBody,
      response: { 200: aiFeedbackAnswer, ...errors },
    },
    handler: async (req) => {
      const principal = await optionalPrincipal(app, req);
      const orgId = principal?.orgId ?? (await findDemoOrganization(app.db))?.id;
      if (!orgId) throw new AppError("DEMO_UNAVAILABLE", DEMO_UNAVAILABLE);
      return service.recordAnswerFeedback(app.db, orgId, req.body, principal ? undefined : "demo");
    },
  });

  app.get("/api/ai/unanswered", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "Questions the assistant could not answer in the last 30 days, grouped",
      response: { 200: aiUnansweredAnswer, ...errors },
    },
    handler: async (req) =>
      service.withClosestArticles(await inRequest(app, req, (ctx) => service.unansweredQuestions(ctx, app.db))),
  });

  app.post("/api/ai/unanswered/attach", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Attach unanswered questions to an article as example questions (administrators)",
      body: attachUnansweredBody,
      response: { 200: unansweredReviewedAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.attachUnanswered(ctx, req.body)),
  });

  app.post("/api/ai/unanswered/new-article", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Start a draft article from unanswered questions (administrators)",
      body: newArticleFromUnansweredBody,
      response: { 201: unansweredReviewedAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const created = await inRequest(app, req, (ctx) => service.newArticleFromUnanswered(ctx, req.body));
      return reply.code(201).send(created);
    },
  });

  app.get("/api/ai/settings", {
    config: { access: "authenticated" },
    schema: { tags: ["ai"], summary: "The assistant's settings", response: { 200: aiSettingsAnswer, ...errors } },
    handler: async (req) => ({ settings: await inRequest(app, req, service.getSettings) }),
  });

  app.put("/api/ai/settings", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Change the assistant's settings (administrators)",
      body: updateAiSettingsBody,
      response: { 200: aiSettingsAnswer, ...errors },
    },
    handler: async (req) => ({ settings: await inRequest(app, req, (ctx) => service.updateSettings(ctx, req.body)) }),
  });

  app.get("/api/ai/stats", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "Measured resolution rate over the last 30 days",
      response: { 200: aiStatsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.answerStats),
  });
}
