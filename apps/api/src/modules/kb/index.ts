// The kb module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { kbRoutes } from "./kb.routes.ts";
import { kbPublicRoutes } from "./kb-public.routes.ts";

export {
  articleQuestionCounts,
  findPublished,
  kbSlug,
  lockArticleQuestions,
  publishedArticleCount,
  publishedArticles,
  publishedArticlesStamp,
  saveArticleQuestions,
} from "./kb.queries.ts";
export { createArticle, getArticle, updateArticle } from "./kb.service.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance): Promise<void> {
  await app.register(kbRoutes);
  await app.register(kbPublicRoutes);
}
