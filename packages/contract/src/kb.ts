import { z } from "zod";
import { attachmentAnswer, attachmentSchema, uploadAttachmentQuery } from "./attachments.ts";
import { cursorParam, pageParam } from "./pagination.ts";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import "./messages.ts";
import { messageAnswer, requiredText } from "./auth.ts";
import { isUuid } from "./ids.ts";
import { defineRoute, idParams } from "./routes.ts";
import { paginationSchema } from "./tickets.ts";

export const KB_ARTICLE_STATUSES = ["draft", "published"] as const;
export type KbArticleStatus = (typeof KB_ARTICLE_STATUSES)[number];

export const KB_PAGE_SIZE = 20;
export const KB_PAGE_MAX = 100;
export const KB_TITLE_MAX = 200;
export const KB_BODY_MAX = 100_000;
export const KB_CATEGORY_NAME_MAX = 60;
export const KB_QUESTION_MAX = 300;
export const KB_QUESTIONS_MAX = 20;
export const KB_SEARCH_MAX = 200;
/** The help center lists at most this many search results. */
export const HELP_SEARCH_LIMIT = 20;

const noNul = (s: string) => !s.includes("\u0000");

/** The help center's addresses; the AI assistant cites the article one, so they never change shape. */
export const helpCenterPath = (orgSlug: string) => `/help/${encodeURIComponent(orgSlug)}`;
export const helpArticlePath = (orgSlug: string, articleSlug: string) =>
  `${helpCenterPath(orgSlug)}/articles/${encodeURIComponent(articleSlug)}`;

// Requests -----------------------------------------------------------------------------------------------------------

/**
 * Markdown is kept exactly as typed (leading spaces make code blocks, so it is not trimmed). A draft may be empty; the
 * service refuses to publish an empty one.
 */
const markdownBody = z
  .string({ error: "Body must be text" })
  .max(KB_BODY_MAX, `Body must be at most ${KB_BODY_MAX.toLocaleString("en-US")} characters`)
  .refine(noNul, "Body contains an invalid character");

/** Other ways a customer asks the question. Blank lines are dropped and repeats (ignoring case) kept once. */
const questionList = z
  .array(
    z
      .string({ error: "Each alternative phrasing must be text" })
      .trim()
      .max(KB_QUESTION_MAX, `An alternative phrasing must be at most ${KB_QUESTION_MAX} characters`)
      .refine(noNul, "An alternative phrasing contains an invalid character"),
    { error: "Alternative phrasings must be a list of questions" },
  )
  .max(KB_QUESTIONS_MAX, `An article can have at most ${KB_QUESTIONS_MAX} alternative phrasings`)
  .transform((questions) => {
    const seen = new Set<string>();
    return questions.filter((q) => {
      const key = q.toLowerCase();
      if (q === "" || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

const categoryId = z.uuid({ error: "Choose a category from the list" }).nullable();
const status = z.enum(KB_ARTICLE_STATUSES, { error: `Status must be one of ${KB_ARTICLE_STATUSES.join(", ")}` });

export const createArticleBody = z.object({
  title: requiredText("Title", KB_TITLE_MAX),
  body: markdownBody.default(""),
  category_id: categoryId.default(null),
  questions: questionList.default([]),
  status: status.default("draft"),
});
export type CreateArticleBody = z.input<typeof createArticleBody>;

export const updateArticleBody = z
  .object({
    title: requiredText("Title", KB_TITLE_MAX).optional(),
    body: markdownBody.optional(),
    category_id: categoryId.optional(),
    questions: questionList.optional(),
    status: status.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "Send at least one field to change");
export type UpdateArticleBody = z.input<typeof updateArticleBody>;

export const articleListQuery = z.object({
  page: pageParam,
  cursor: cursorParam,
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(KB_PAGE_MAX, `limit must be at most ${KB_PAGE_MAX}`)
    .default(KB_PAGE_SIZE),
  search: z.string().trim().max(KB_SEARCH_MAX, `Search must be at most ${KB_SEARCH_MAX} characters`).optional(),
  /** A category id, or "none" for articles without a category. */
  category_id: z
    .string()
    .refine((v) => v === "none" || isUuid(v), "category_id must be a category id or none")
    .optional(),
  status: status.optional(),
});
export type ArticleListQuery = z.input<typeof articleListQuery>;

export const createCategoryBody = z.object({ name: requiredText("Category name", KB_CATEGORY_NAME_MAX) });
export type CreateCategoryBody = z.input<typeof createCategoryBody>;

export const feedbackBody = z.object({ helpful: z.boolean({ error: "helpful must be true or false" }) });
export type FeedbackBody = z.input<typeof feedbackBody>;

export const helpSearchQuery = z.object({
  q: z.string({ error: "Type something to search for" }).trim().max(KB_SEARCH_MAX, "Search is too long"),
});

// Answers ------------------------------------------------------------------------------------------------------------

/** An article as lists show it (spec: Knowledge article, with status and both feedback counts). */
export const articleSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  slug: z.string(),
  status: z.enum(KB_ARTICLE_STATUSES),
  category_id: z.uuid().nullable(),
  category_name: z.string().nullable(),
  view_count: z.number().int(),
  helpful_count: z.number().int(),
  not_helpful_count: z.number().int(),
  author_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

export const articleSchema = articleSummarySchema.extend({
  body: z.string(),
  questions: z.array(z.string()),
  /** Its files (GET /kb/articles/{id} lists them): public in the help center once the article is published. */
  attachments: z.array(attachmentSchema).optional(),
});
export type Article = z.infer<typeof articleSchema>;

export const articleAnswer = z.object({ article: articleSchema });
export type ArticleAnswer = z.infer<typeof articleAnswer>;

export const articleListAnswer = z.object({ articles: z.array(articleSummarySchema), pagination: paginationSchema });
export type ArticleListAnswer = z.infer<typeof articleListAnswer>;

export const categorySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  position: z.number().int(),
  article_count: z.number().int(),
  published_count: z.number().int(),
});
export type Category = z.infer<typeof categorySchema>;
export const categoryAnswer = z.object({ category: categorySchema });
export const categoryListAnswer = z.object({ categories: z.array(categorySchema) });
export type CategoryListAnswer = z.infer<typeof categoryListAnswer>;

export const feedbackAnswer = z.object({ helpful_count: z.number().int(), not_helpful_count: z.number().int() });
export type FeedbackAnswer = z.infer<typeof feedbackAnswer>;

// The public help center: published articles only, and nothing about who wrote them.

export const helpOrganization = z.object({ name: z.string(), slug: z.string() });
export const helpArticleLink = z.object({ id: z.uuid(), title: z.string(), slug: z.string() });
export type HelpArticleLink = z.infer<typeof helpArticleLink>;

export const helpCenterAnswer = z.object({
  organization: helpOrganization,
  categories: z.array(
    z.object({ id: z.uuid(), name: z.string(), slug: z.string(), articles: z.array(helpArticleLink) }),
  ),
  /** Published articles in no category. */
  uncategorized: z.array(helpArticleLink),
});
export type HelpCenterAnswer = z.infer<typeof helpCenterAnswer>;

export const helpSearchResult = helpArticleLink.extend({ category_name: z.string().nullable(), excerpt: z.string() });
export type HelpSearchResult = z.infer<typeof helpSearchResult>;
export const helpSearchAnswer = z.object({ results: z.array(helpSearchResult) });
export type HelpSearchAnswer = z.infer<typeof helpSearchAnswer>;

export const helpArticleAnswer = z.object({
  organization: helpOrganization,
  article: z.object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    body: z.string(),
    category: z.object({ name: z.string(), slug: z.string() }).nullable(),
    updated_at: z.string(),
    /** Its files, at helpArticleFilePath. */
    attachments: z.array(attachmentSchema),
  }),
  /** Other published articles of the same category. */
  related: z.array(helpArticleLink),
});
export type HelpArticleAnswer = z.infer<typeof helpArticleAnswer>;

/** Where an article's file is served: to staff (drafts too), and publicly once the article is published. */
export const articleFilePath = (articleId: string, fileId: string) => `/api/kb/articles/${articleId}/files/${fileId}`;
export const helpArticleFilePath = (orgSlug: string, articleSlug: string, fileId: string) =>
  `/api/public/${encodeURIComponent(orgSlug)}/kb/articles/${encodeURIComponent(articleSlug)}/files/${fileId}`;

export const HELP_FEEDBACK_THANKS = "Thanks for your feedback!";
export const helpFeedbackAnswer = z.object({ message: z.string() });

// Routes -------------------------------------------------------------------------------------------------------------

const kbTags = ["knowledge base"];
const fileParams = z.object({ id: z.string(), fileId: z.string() });
const fileAnswer = z.unknown().describe("The file's bytes");

/** The staff side of the knowledge base: agents and admins alike (docs/product.md, "Roles"). */
export const kbApi = {
  listArticles: defineRoute({
    method: "GET",
    path: "/api/kb/articles",
    summary: "List articles: search, category and status filters, pages",
    tags: kbTags,
    access: "authenticated",
    query: articleListQuery,
    answers: { 200: articleListAnswer },
  }),
  createArticle: defineRoute({
    method: "POST",
    path: "/api/kb/articles",
    summary: "Write an article (a draft unless status is published)",
    tags: kbTags,
    access: "authenticated",
    body: createArticleBody,
    answers: { 201: articleAnswer },
  }),
  getArticle: defineRoute({
    method: "GET",
    path: "/api/kb/articles/:id",
    summary: "An article with its body",
    tags: kbTags,
    access: "authenticated",
    params: idParams,
    answers: { 200: articleAnswer },
  }),
  updateArticle: defineRoute({
    method: "PUT",
    path: "/api/kb/articles/:id",
    summary: "Change an article; status publishes or unpublishes it",
    tags: kbTags,
    access: "authenticated",
    params: idParams,
    body: updateArticleBody,
    answers: { 200: articleAnswer },
  }),
  deleteArticle: defineRoute({
    method: "DELETE",
    path: "/api/kb/articles/:id",
    summary: "Delete an article",
    tags: kbTags,
    access: "authenticated",
    params: idParams,
    answers: { 200: messageAnswer },
  }),
  attachFile: defineRoute({
    method: "POST",
    path: "/api/kb/articles/:id/files",
    summary: "Attach a file to an article (the body is the file, application/octet-stream)",
    tags: kbTags,
    access: "authenticated",
    params: idParams,
    query: uploadAttachmentQuery,
    answers: { 201: attachmentAnswer },
    errors: ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  }),
  articleFile: defineRoute({
    method: "GET",
    path: "/api/kb/articles/:id/files/:fileId",
    summary: "A file of an article (drafts too): shown inline when a safe image, else a download",
    tags: kbTags,
    access: "authenticated",
    params: fileParams,
    answers: { 200: fileAnswer },
  }),
  removeFile: defineRoute({
    method: "DELETE",
    path: "/api/kb/articles/:id/files/:fileId",
    summary: "Remove a file from an article",
    tags: kbTags,
    access: "authenticated",
    params: fileParams,
    answers: { 200: messageAnswer },
  }),
  feedback: defineRoute({
    method: "POST",
    path: "/api/kb/articles/:id/feedback",
    summary: "Count a helpful or not helpful vote",
    tags: kbTags,
    access: "authenticated",
    params: idParams,
    body: feedbackBody,
    answers: { 200: feedbackAnswer },
  }),
  listCategories: defineRoute({
    method: "GET",
    path: "/api/kb/categories",
    summary: "The organization's categories, in order, with article counts",
    tags: kbTags,
    access: "authenticated",
    answers: { 200: categoryListAnswer },
  }),
  createCategory: defineRoute({
    method: "POST",
    path: "/api/kb/categories",
    summary: "Add a category (names are unique, ignoring case)",
    tags: kbTags,
    access: "authenticated",
    body: createCategoryBody,
    answers: { 201: categoryAnswer },
    errors: ["CONFLICT"],
  }),
};

const helpTags = ["help center (public)"];
const orgParams = z.object({ orgSlug: z.string().max(200) });
const helpArticleParams = orgParams.extend({ articleSlug: z.string().max(200) });

/** The public help center: published articles only, no sign-in (docs/decisions/2026-11-23-knowledge-base.md). */
export const helpCenterApi = {
  center: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/kb",
    summary: "An organization's help center: its name and published articles by category",
    tags: helpTags,
    access: "public",
    params: orgParams,
    answers: { 200: helpCenterAnswer },
  }),
  search: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/kb/search",
    summary: "Search the published articles",
    tags: helpTags,
    access: "public",
    params: orgParams,
    query: helpSearchQuery,
    answers: { 200: helpSearchAnswer },
  }),
  article: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/kb/articles/:articleSlug",
    summary: "One published article (counts a view)",
    tags: helpTags,
    access: "public",
    params: helpArticleParams,
    answers: { 200: helpArticleAnswer },
  }),
  articleFile: defineRoute({
    method: "GET",
    path: "/api/public/:orgSlug/kb/articles/:articleSlug/files/:fileId",
    summary: "A file of a published article: shown inline when a safe image, else a download",
    tags: helpTags,
    access: "public",
    params: helpArticleParams.extend({ fileId: z.string() }),
    answers: { 200: fileAnswer },
  }),
  feedback: defineRoute({
    method: "POST",
    path: "/api/public/:orgSlug/kb/articles/:articleSlug/feedback",
    summary: "Was this helpful? yes or no",
    tags: helpTags,
    access: "public",
    params: helpArticleParams,
    body: feedbackBody,
    answers: { 200: helpFeedbackAnswer },
  }),
};
