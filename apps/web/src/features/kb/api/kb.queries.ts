import {
  type Article,
  articleAnswer,
  articleListAnswer,
  type Category,
  categoryListAnswer,
  helpArticleAnswer,
  helpCenterAnswer,
  helpSearchAnswer,
  type KbArticleStatus,
} from "@cove/contract/kb.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** What an article list is asked for; the same shape lives in the list page's address. */
export interface ArticleListParams {
  page: number;
  limit?: number;
  search?: string;
  /** A category id, or "none". */
  category_id?: string;
  status?: KbArticleStatus;
}

/** Every staff knowledge-base query starts with "kb", so one invalidation reaches lists, articles and categories. */
export const kbKeys = {
  all: ["kb"] as const,
  lists: () => [...kbKeys.all, "list"] as const,
  list: (params: ArticleListParams) => [...kbKeys.lists(), params] as const,
  article: (id: string) => [...kbKeys.all, "article", id] as const,
  categories: () => [...kbKeys.all, "categories"] as const,
};

export function articleListPath(params: ArticleListParams): string {
  const query = new URLSearchParams();
  query.set("page", String(params.page));
  if (params.limit !== undefined) query.set("limit", String(params.limit));
  if (params.search) query.set("search", params.search);
  if (params.category_id) query.set("category_id", params.category_id);
  if (params.status) query.set("status", params.status);
  return `/kb/articles?${query}`;
}

export function useArticleList(params: ArticleListParams) {
  return useQuery({
    queryKey: kbKeys.list(params),
    queryFn: ({ signal }) => apiRequest(articleListPath(params), { schema: articleListAnswer, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useArticle(id: string) {
  return useQuery({
    queryKey: kbKeys.article(id),
    queryFn: async ({ signal }): Promise<Article> =>
      (await apiRequest(`/kb/articles/${encodeURIComponent(id)}`, { schema: articleAnswer, signal })).article,
  });
}

export function useCategories() {
  return useQuery({
    queryKey: kbKeys.categories(),
    queryFn: async ({ signal }): Promise<Category[]> =>
      (await apiRequest("/kb/categories", { schema: categoryListAnswer, signal })).categories,
  });
}

// The public help center (no sign-in needed).

export const helpBase = (orgSlug: string) => `/public/${encodeURIComponent(orgSlug)}/kb`;

export const helpKeys = {
  center: (orgSlug: string) => ["help", orgSlug] as const,
  search: (orgSlug: string, q: string) => ["help", orgSlug, "search", q] as const,
  article: (orgSlug: string, slug: string) => ["help", orgSlug, "article", slug] as const,
};

export function useHelpCenter(orgSlug: string) {
  return useQuery({
    queryKey: helpKeys.center(orgSlug),
    queryFn: ({ signal }) => apiRequest(helpBase(orgSlug), { schema: helpCenterAnswer, signal }),
  });
}

export function useHelpSearch(orgSlug: string, q: string) {
  return useQuery({
    queryKey: helpKeys.search(orgSlug, q),
    queryFn: ({ signal }) =>
      apiRequest(`${helpBase(orgSlug)}/search?q=${encodeURIComponent(q)}`, { schema: helpSearchAnswer, signal }),
    enabled: q !== "",
    placeholderData: keepPreviousData,
  });
}

export function useHelpArticle(orgSlug: string, slug: string) {
  return useQuery({
    queryKey: helpKeys.article(orgSlug, slug),
    queryFn: ({ signal }) =>
      apiRequest(`${helpBase(orgSlug)}/articles/${encodeURIComponent(slug)}`, { schema: helpArticleAnswer, signal }),
  });
}
