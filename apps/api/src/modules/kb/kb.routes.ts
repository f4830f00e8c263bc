import { messageAnswer } from "@cove/contract/auth.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import {
  articleAnswer,
  articleListAnswer,
  articleListQuery,
  categoryAnswer,
  categoryListAnswer,
  createArticleBody,
  createCategoryBody,
  feedbackAnswer,
  feedbackBody,
  updateArticleBody,
} from "@cove/contract/kb.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inTenant } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import * as service from "./kb.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["knowledge base"];
const params = idParams;
const articleId = (id: string) => recordId("Article", id);

/** The staff side of the knowledge base: agents and admins alike (PRODUCT.md section 3). */
export async function kbRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const access = "authenticated" as const;

  app.get("/api/kb/articles", {
    config: { access },
    schema: {
      tags,
      summary: "List articles: search, category and status filters, pages",
      querystring: articleListQuery,
      response: { 200: articleListAnswer, ...errors },
    },
    handler: (req) => inTenant(app, req, (ctx) => service.listArticles(ctx, req.query)),
  });

  app.post("/api/kb/articles", {
    config: { access },
    schema: {
      tags,
      summary: "Write an article (a draft unless status is published)",
      body: createArticleBody,
      response: { 201: articleAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({ article: await inTenant(app, req, (ctx) => service.createArticle(ctx, req.body)) }),
  });

  app.get("/api/kb/articles/:id", {
    config: { access },
    schema: { tags, summary: "An article with its body", params, response: { 200: articleAnswer, ...errors } },
    handler: async (req) => ({
      article: await inTenant(app, req, (ctx) => service.getArticle(ctx, articleId(req.params.id))),
    }),
  });

  app.put("/api/kb/articles/:id", {
    config: { access },
    schema: {
      tags,
      summary: "Change an article; status publishes or unpublishes it",
      params,
      body: updateArticleBody,
      response: { 200: articleAnswer, ...errors },
    },
    handler: async (req) => ({
      article: await inTenant(app, req, (ctx) => service.updateArticle(ctx, articleId(req.params.id), req.body)),
    }),
  });

  app.delete("/api/kb/articles/:id", {
    config: { access },
    schema: { tags, summary: "Delete an article", params, response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      await inTenant(app, req, (ctx) => service.deleteArticle(ctx, articleId(req.params.id)));
      return { message: "Article deleted" };
    },
  });

  app.post("/api/kb/articles/:id/feedback", {
    config: { access },
    schema: {
      tags,
      summary: "Count a helpful or not helpful vote",
      params,
      body: feedbackBody,
      response: { 200: feedbackAnswer, ...errors },
    },
    handler: (req) =>
      inTenant(app, req, (ctx) => service.recordFeedback(ctx, articleId(req.params.id), req.body.helpful)),
  });

  app.get("/api/kb/categories", {
    config: { access },
    schema: {
      tags,
      summary: "The organization's categories, in order, with article counts",
      response: { 200: categoryListAnswer, ...errors },
    },
    handler: async (req) => ({ categories: await inTenant(app, req, service.listCategories) }),
  });

  app.post("/api/kb/categories", {
    config: { access },
    schema: {
      tags,
      summary: "Add a category (names are unique, ignoring case)",
      body: createCategoryBody,
      response: { 201: categoryAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({ category: await inTenant(app, req, (ctx) => service.createCategory(ctx, req.body)) }),
  });
}
