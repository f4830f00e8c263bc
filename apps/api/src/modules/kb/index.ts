// The kb module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).

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
export { kbRoutes } from "./kb.routes.ts";
export { createArticle, getArticle, updateArticle } from "./kb.service.ts";
export { kbPublicRoutes } from "./kb-public.routes.ts";
