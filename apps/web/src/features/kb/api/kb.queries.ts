import { type Article, type Category, helpCenterApi, type KbArticleStatus, kbApi } from "@cove/contract/kb.ts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

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

export function useArticleList(params: ArticleListParams) {
  // An empty search or filter is no filter: left out of the address.
  const query = {
    page: params.page,
    limit: params.limit,
    search: params.search || undefined,
    category_id: params.category_id || undefined,
    status: params.status,
  };
  return useQuery({
    queryKey: kbKeys.list(params),
    queryFn: ({ signal }) => callRoute(kbApi.listArticles, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useArticle(id: string) {
  return useQuery({
    queryKey: kbKeys.article(id),
    queryFn: async ({ signal }): Promise<Article> =>
      (await callRoute(kbApi.getArticle, { params: { id }, signal })).article,
  });
}

export function useCategories() {
  return useQuery({
    queryKey: kbKeys.categories(),
    queryFn: async ({ signal }): Promise<Category[]> => (await callRoute(kbApi.listCategories, { signal })).categories,
  });
}

// The public help center (no sign-in needed).

export const helpKeys = {
  center: (orgSlug: string) => ["help", orgSlug] as const,
  search: (orgSlug: string, q: string) => ["help", orgSlug, "search", q] as const,
  article: (orgSlug: string, slug: string) => ["help", orgSlug, "article", slug] as const,
};

export function useHelpCenter(orgSlug: string) {
  return useQuery({
    queryKey: helpKeys.center(orgSlug),
    queryFn: ({ signal }) => callRoute(helpCenterApi.center, { params: { orgSlug }, signal }),
  });
}

export function useHelpSearch(orgSlug: string, q: string) {
  return useQuery({
    queryKey: helpKeys.search(orgSlug, q),
    queryFn: ({ signal }) => callRoute(helpCenterApi.search, { params: { orgSlug }, query: { q }, signal }),
    enabled: q !== "",
    placeholderData: keepPreviousData,
  });
}

export function useHelpArticle(orgSlug: string, slug: string) {
  return useQuery({
    queryKey: helpKeys.article(orgSlug, slug),
    queryFn: ({ signal }) => callRoute(helpCenterApi.article, { params: { orgSlug, articleSlug: slug }, signal }),
  });
}
