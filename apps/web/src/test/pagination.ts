/** Which page of a list the fixtures show, and how many items the list has in all (the items given, unless said). */
export type PageOf = Partial<{ page: number; total: number }>;

/** A list answer's pagination for `shown` items on a page of `limit` (page 1 of them all, unless `of` says other). */
export function paginationOf(shown: number, limit: number, of: PageOf = {}) {
  const total = of.total ?? shown;
  return { page: of.page ?? 1, limit, total, pages: Math.max(1, Math.ceil(total / limit)), next_cursor: null };
}
