import { kbApi } from "@cove/contract/kb.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "../attachments/index.ts";
import * as service from "./kb.service.ts";

const articleId = (id: string) => recordId("Article", id);
const fileIds = (params: { id: string; fileId: string }) =>
  [articleId(params.id), recordId("File", params.fileId)] as const;

/** The staff side of the knowledge base (the contract's kbApi): agents and admins alike (docs/product.md, "Roles"). */
export async function kbRoutes(app: FastifyInstance) {
  fileBody(app);

  addRoute(app, kbApi.listArticles, {
    handler: (req) => inRequest(app, req, (ctx) => service.listArticles(ctx, req.query)),
  });

  addRoute(app, kbApi.createArticle, {
    handler: async (req, reply) =>
      reply.status(201).send({ article: await inRequest(app, req, (ctx) => service.createArticle(ctx, req.body)) }),
  });

  addRoute(app, kbApi.getArticle, {
    handler: async (req) => ({
      article: await inRequest(app, req, (ctx) => service.getArticle(ctx, articleId(req.params.id))),
    }),
  });

  addRoute(app, kbApi.updateArticle, {
    handler: async (req) => ({
      article: await inRequest(app, req, (ctx) => service.updateArticle(ctx, articleId(req.params.id), req.body)),
    }),
  });

  addRoute(app, kbApi.deleteArticle, {
    handler: async (req) => {
      await inRequest(app, req, (ctx) => service.deleteArticle(ctx, articleId(req.params.id)));
      return { message: "Article deleted" };
    },
  });

  addRoute(app, kbApi.attachFile, {
    config: { rateLimit: UPLOAD_RATE_LIMIT },
    handler: async (req, reply) => {
      const id = articleId(req.params.id);
      const file = { filename: req.query.filename, bytes: fileBytes(req.body) };
      return reply.status(201).send({
        attachment: await inRequest(app, req, (ctx) => service.attachToArticle(ctx, id, file, app.attachmentLimits)),
      });
    },
  });

  addRoute(app, kbApi.articleFile, {
    handler: async (req, reply) => {
      const [id, fileId] = fileIds(req.params);
      return sendFile(reply, await inRequest(app, req, (ctx) => service.articleFile(ctx, id, fileId)));
    },
  });

  addRoute(app, kbApi.removeFile, {
    handler: async (req) => {
      const [id, fileId] = fileIds(req.params);
      await inRequest(app, req, (ctx) => service.removeArticleFile(ctx, id, fileId));
      return { message: "File removed" };
    },
  });

  addRoute(app, kbApi.feedback, {
    handler: (req) =>
      inRequest(app, req, (ctx) => service.recordFeedback(ctx, articleId(req.params.id), req.body.helpful)),
  });

  addRoute(app, kbApi.listCategories, {
    handler: async (req) => ({ categories: await inRequest(app, req, service.listCategories) }),
  });

  addRoute(app, kbApi.createCategory, {
    handler: async (req, reply) =>
      reply.status(201).send({ category: await inRequest(app, req, (ctx) => service.createCategory(ctx, req.body)) }),
  });
}
