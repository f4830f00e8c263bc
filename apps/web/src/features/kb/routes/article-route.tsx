import { type Article, helpArticlePath } from "@cove/contract/kb.ts";
import { ExternalLink, Eye, Pencil, ThumbsUp } from "lucide-react";
import { Link, useLocation, useParams } from "react-router";
import { MarkdownView } from "../../../components/markdown-view.tsx";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { ActionRow, BackLink } from "../../../components/ui/page-header.tsx";
import { TitledSection } from "../../../components/ui/titled-section.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { ArticleFiles } from "../components/article-files.tsx";
import { ArticleLoader } from "../components/article-loader.tsx";
import { ArticleStatusBadge } from "../components/article-status-badge.tsx";
import type { ArticleLinkState } from "../components/article-table.tsx";
import { formatCount, formatDateTime, helpfulText } from "../components/kb-format.ts";

/** Back to the list as it was left (filters and page), when the article was opened from it. */
function useListPath(): string {
  const state: unknown = useLocation().state;
  if (typeof state === "object" && state !== null && "listSearch" in state) {
    const { listSearch } = state as ArticleLinkState;
    if (typeof listSearch === "string" && (listSearch === "" || listSearch.startsWith("?")))
      return `/knowledge-base${listSearch}`;
  }
  return "/knowledge-base";
}

export function ArticleRoute() {
  const { id = "" } = useParams();
  return <ArticleLoader id={id}>{(article) => <ArticleReader article={article} />}</ArticleLoader>;
}

function ArticleReader({ article }: { article: Article }) {
  const { user } = useAuth();
  const listPath = useListPath();
  return (
    <div className="space-y-6">
      <title>{`${article.title} · Knowledge Base · Cove`}</title>
      <ActionRow>
        <BackLink to={listPath}>Back to Knowledge Base</BackLink>
        <div className="flex flex-wrap gap-2">
          {article.status === "published" && user && (
            <Link to={helpArticlePath(user.organizationSlug, article.slug)} className={buttonClasses("secondary")}>
              <ExternalLink className="size-4" aria-hidden="true" />
              View in help center
            </Link>
          )}
          <Link to={`/knowledge-base/${article.id}/edit`} className={buttonClasses("primary")}>
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </Link>
        </div>
      </ActionRow>

      <article
        aria-labelledby="article-title"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-8"
      >
        <header className="space-y-3 border-b border-slate-100 pb-5">
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <ArticleStatusBadge status={article.status} />
            <span>{article.category_name ?? "No category"}</span>
          </div>
          <h1
            id="article-title"
            className="text-2xl font-semibold tracking-tight break-words text-slate-900 sm:text-3xl"
          >
            {article.title}
          </h1>
          <p className="text-sm text-slate-500">
            Updated {formatDateTime(article.updated_at)}
            {article.author_name && <> · Written by {article.author_name}</>}
          </p>
          <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700">
            <div className="flex items-center gap-1.5">
              <Eye className="size-4 text-slate-400" aria-hidden="true" />
              <dt>Views</dt>
              <dd className="font-medium tabular-nums">{formatCount(article.view_count)}</dd>
            </div>
            <div className="flex items-center gap-1.5">
              <ThumbsUp className="size-4 text-slate-400" aria-hidden="true" />
              <dt>Helpful</dt>
              <dd className="font-medium tabular-nums">
                {helpfulText(article.helpful_count, article.not_helpful_count)}
              </dd>
            </div>
          </dl>
        </header>
        <div className="pt-6">
          {article.body.trim() === "" ? (
            <p className="text-sm text-slate-500 italic">This draft has no text yet.</p>
          ) : (
            <MarkdownView source={article.body} />
          )}
          <div className="mt-6">
            <ArticleFiles article={article} />
          </div>
        </div>
      </article>

      {article.questions.length > 0 && (
        <TitledSection
          titleId="phrasings-title"
          title="Also answers"
          className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
          titleClassName="text-sm font-semibold text-slate-900"
        >
          <ul className="mt-3 space-y-1.5 text-sm break-words text-slate-700">
            {article.questions.map((q) => (
              <li key={q}>“{q}”</li>
            ))}
          </ul>
        </TitledSection>
      )}
    </div>
  );
}
