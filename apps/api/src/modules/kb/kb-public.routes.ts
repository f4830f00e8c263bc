import { errorSchema } from "@cove/contract/errors.ts";
import {
  feedbackBody,
  HELP_FEEDBACK_THANKS,
  helpArticleAnswer,
  helpCenterAnswer,
  helpFeedbackAnswer,
  helpSearchAnswer,
  helpSearchQuery,
} from "@cove/contract/kb.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { orgOfSlug } from "../../platform/organizations.ts";
import { sendFile } from "../attachments/index.ts";
import * as service from "./kb-public.service.ts";

const errors = { 400: errorSchema, 404: errorSchema, 429: errorSchema };
const tags = ["help center (public)"];
const orgParams = z.object({ orgSlug: z.string().max(200) });
const articleParams = orgParams.extend({ articleSlug: z.string().max(200) });

/**
 * Anyone may read an organization's help center, so every request that writes (a view, a vote) or costs a search is
 * limited per address; a visitor reading normally never comes near these.
 */
const limits = {
  search: { max: 60, timeWindow: "1 minute" },
  article: { max: 60, timeWindow: "1 minute" },
  feedback: { max: 20, timeWindow: "10 minutes" },
  file: { max: 120, timeWindow: "1 minute" },
};

/** The public help center: published articles only, no sign-in (docs/decisions/2026-11-23-knowledge-base.md). */
export async function kbPublicRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/public/:orgSlug/kb", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "An organization's help center: its name and published articles by category",
      params: orgParams,
      response: { 200: helpCenterAnswer, ...errors },
    },
    handler: (req) => service.helpCenter(app.db, req.params.orgSlug),
  });

  app.get("/api/public/:orgSlug/kb/search", {
    config: { access: "public", rateLimit: limits.search },
    schema: {
      tags,
      summary: "Search the published articles",
      params: orgParams,
      querystring: helpSearchQuery,
      response: { 200: helpSearchAnswer, ...errors },
    },
    handler: (req) => service.searchHelpCenter(app.db, req.params.orgSlug, req.query.q),
  });

  app.get("/api/public/:orgSlug/kb/articles/:articleSlug", {
    config: { access: "public", rateLimit: limits.article },
    schema: {
      tags,
      summary: "One published article (counts a view)",
      params: articleParams,
      response: { 200: helpArticleAnswer, ...errors },
    },
    handler: (req) => service.helpArticle(app.db, req.params.orgSlug, req.params.articleSlug),
  });

  app.get("/api/public/:orgSlug/kb/articles/:articleSlug/files/:fileId", {
    config: { access: "public", rateLimit: limits.file },
    schema: {
      tags,
      summary: "A file of a published article: shown inline when a safe image, else a download",
      params: articleParams.extend({ fileId: z.string() }),
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) =>
      sendFile(
        reply,
        await service.helpArticleFile(app.db, req.params.orgSlug, req.params.articleSlug, req.params.fileId),
      ),
  });

  app.post("/api/public/:orgSlug/kb/articles/:articleSlug/feedback", {
    config: { access: "public", writesTo: orgOfSlug, rateLimit: limits.feedback },
    schema: {
      tags,
      summary: "Was this helpful? yes or no",
      params: articleParams,
      body: feedbackBody,
      response: { 200: helpFeedbackAnswer, ...errors },
    },
    handler: async (req) => {
      await service.recordHelpFeedback(app.db, req.params.orgSlug, req.params.articleSlug, req.body.helpful);
      return { message: HELP_FEEDBACK_THANKS };
    },
  });
}
