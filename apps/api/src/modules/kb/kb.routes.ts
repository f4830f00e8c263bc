import { attachmentAnswer, uploadAttachmentQuery } from "@cove/contract/attachments.ts";
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
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "../attachments/index.ts";
import * as service from "./kb.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["knowledge base"];
const params = idParams;
const articleId = (id: string) => recordId("Article", id);
const fileParams = z.object({ id: z.string(), fileId: z.string() });

/** The staff side of the knowledge base: agents and admins alike (docs/product.md, "Roles"). */
export async function kbRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const access = "authenticated" as const;
  fileBody(fastify);

  app.get("/api/kb/articles", {
    config: { access },
    schema: {
      tags,
      summary: "List articles: search, category and status filters, pages",
      querystring: articleListQuery,
      response: { 200: articleListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.listArticles(ctx, req.query)),
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
      reply.status(201).send({ article: await inRequest(app, req, (ctx) => service.createArticle(ctx, req.body)) }),
  });

  app.get("/api/kb/articles/:id", {
    config: { access },
    schema: { tags, summary: "An article with its body", params, response: { 200: articleAnswer, ...errors } },
    handler: async (req) => ({
      article: await inRequest(app, req, (ctx) => service.getArticle(ctx, articleId(req.params.id))),
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
      article: await inRequest(app, req, (ctx) => service.updateArticle(ctx, articleId(req.params.id), req.body)),
    }),
  });

  app.delete("/api/kb/articles/:id", {
    config: { access },
    schema: { tags, summary: "Delete an article", params, response: { 200: messageAnswer, ...errors } },
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.deleteArticle(ctx, articleId(req.params.id)));
      return { message: "Article deleted" };
    },
  });

  app.post("/api/kb/articles/:id/files", {
    config: { access, rateLimit: UPLOAD_RATE_LIMIT },
    schema: {
      tags,
      summary: "Attach a file to an article (the body is the file, application/octet-stream)",
      params,
      querystring: uploadAttachmentQuery,
      response: { 201: attachmentAnswer, ...errors, 403: errorSchema, 413: errorSchema, 415: errorSchema },
    },
    handler: async (req, reply) => {
      const id = articleId(req.params.id);
      const bytes = fileBytes(req.body);
      const file = { filename: req.query.filename, bytes };
      return reply.status(201).send({
        attachment: await inRequest(app, req, (ctx) => service.attachToArticle(ctx, id, file, app.attachmentLimits)),
      });
    },
  });

  app.get("/api/kb/articles/:id/files/:fileId", {
    config: { access },
    schema: {
      tags,
      summary: "A file of an article (drafts too): shown inline when a safe image, else a download",
      params: fileParams,
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) => {
      const [id, fileId] = [articleId(req.params.id), recordId("File", req.params.fileId)];
      return sendFile(reply, await inRequest(app, req, (ctx) => service.articleFile(ctx, id, fileId)));
    },
  });

  app.delete("/api/kb/articles/:id/files/:fileId", {
    config: { access },
    schema: {
      tags,
      summary: "Remove a file from an article",
      params: fileParams,
      response: { 200: messageAnswer, ...errors },
    },
    handler: async (req) => {
      const [id, fileId] = [articleId(req.params.id), recordId("File", req.params.fileId)];
      await inRequest(app, req, (ctx) => service.removeArticleFile(ctx, id, fileId));
      return { message: "File removed" };
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
      inRequest(app, req, (ctx) => service.recordFeedback(ctx, articleId(req.params.id), req.body.helpful)),
  });

  app.get("/api/kb/categories", {
    config: { access },
    schema: {
      tags,
      summary: "The organization's categories, in order, with article counts",
      response: { 200: categoryListAnswer, ...errors },
    },
    handler: async (req) => ({ categories: await inRequest(app, req, service.listCategories) }),
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
      reply.status(201).send({ category: await inRequest(app, req, (ctx) => service.createCategory(ctx, req.body)) }),
  });
}
