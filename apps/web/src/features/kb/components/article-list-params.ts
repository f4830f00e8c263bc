import { articleListQuery, KB_ARTICLE_STATUSES, KB_SEARCH_MAX } from "@cove/contract/kb.ts";
import type { ArticleListParams } from "../api/kb.queries.ts";

export type ArticleFilters = Omit<ArticleListParams, "page" | "limit">;

const categoryField = articleListQuery.shape.category_id;

/** The list's filters and page, read from the address; a value the API would refuse is left out (shows "All"). */
export function readArticleListParams(query: URLSearchParams): ArticleListParams {
  const page = Number(query.get("page"));
  const category = categoryField.safeParse(query.get("category") ?? undefined);
  const search = query.get("search")?.trim().slice(0, KB_SEARCH_MAX);
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    search: search === "" ? undefined : search,
    category_id: category.success ? category.data : undefined,
    status: KB_ARTICLE_STATUSES.find((s) => s === query.get("status")),
  };
}

/** The address form, in a fixed order and without defaults, so equal lists have equal links. */
export function writeArticleListParams(params: ArticleListParams): URLSearchParams {
  const query = new URLSearchParams();
  if (params.search) query.set("search", params.search);
  if (params.category_id) query.set("category", params.category_id);
  if (params.status) query.set("status", params.status);
  if (params.page > 1) query.set("page", String(params.page));
  return query;
}

export const hasArticleFilters = (params: ArticleListParams) =>
  Boolean(params.search || params.category_id || params.status);
