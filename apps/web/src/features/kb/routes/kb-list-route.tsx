import { helpCenterPath, KB_PAGE_SIZE } from "@cove/contract/kb.ts";
import { BookOpen, ExternalLink, Plus } from "lucide-react";
import { useMemo } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { EmptyList, LoadError, Loading, Pager } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { type ArticleListParams, useArticleList, useCategories } from "../api/kb.queries.ts";
import { ArticleFilters } from "../components/article-filters.tsx";
import {
  type ArticleFilters as Filters,
  hasArticleFilters,
  readArticleListParams,
  writeArticleListParams,
} from "../components/article-list-params.ts";
import { ArticleTable } from "../components/article-table.tsx";

export function KbListRoute() {
  const { user } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const params = useMemo(() => readArticleListParams(searchParams), [searchParams]);
  const list = useArticleList({ ...params, limit: KB_PAGE_SIZE });
  const categories = useCategories();

  function show(next: ArticleListParams, replace = false) {
    setSearchParams(writeArticleListParams(next), { replace });
  }
  // Any filter change starts again from the first page.
  const filter = (change: Partial<Filters>, replace?: boolean) => show({ ...params, ...change, page: 1 }, replace);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Knowledge Base"
        lead="Answers for your customers. Published articles appear in your help center, and the AI assistant answers from them."
        actions={
          <>
            {user && (
              <Link to={helpCenterPath(user.organizationSlug)} className={buttonClasses("secondary")}>
                <ExternalLink className="size-4" aria-hidden="true" />
                View help center
              </Link>
            )}
            <Link to="/knowledge-base/new" className={buttonClasses("primary")}>
              <Plus className="size-4" aria-hidden="true" />
              New Article
            </Link>
          </>
        }
      />

      <ArticleFilters
        params={params}
        categories={categories.data ?? []}
        onChange={(change, options) => filter(change, options?.replace)}
      />

      <section
        aria-label="Article list"
        aria-busy={list.isFetching || undefined}
        className="overflow-hidden md:rounded-lg md:border md:border-slate-200 md:bg-white md:shadow-sm"
      >
        {list.isPending ? (
          <Loading label="Loading articles" />
        ) : list.isError ? (
          <LoadError
            className="space-y-3 p-4"
            title="Error loading articles"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.data.articles.length === 0 ? (
          <EmptyList
            filtered={hasArticleFilters(params)}
            pastTheEnd={list.data.pagination.total > 0}
            onClear={() => filter({ search: undefined, category_id: undefined, status: undefined })}
            onFirstPage={() => show({ ...params, page: 1 })}
            noun="articles"
            icon={BookOpen}
            emptyText="Write down the answers to the questions your customers ask most. Once published, they appear in your help center and the AI assistant answers from them."
            emptyAction={
              <Link to="/knowledge-base/new" className={buttonClasses("primary")}>
                Write your first article
              </Link>
            }
            className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center md:border-0"
            textClassName="max-w-md text-sm text-slate-600"
          />
        ) : (
          <div className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
            <ArticleTable articles={list.data.articles} listSearch={location.search} />
            <Pager pagination={list.data.pagination} noun="articles" onPage={(page) => show({ ...params, page })} />
          </div>
        )}
      </section>
    </div>
  );
}
