import { helpArticleFilePath, helpArticlePath, helpCenterPath, KB_SEARCH_MAX } from "@cove/contract/kb.ts";
import { ChevronRight } from "lucide-react";
import { Link, useNavigate, useParams } from "react-router";
import { AttachmentList } from "../../../components/attachment-list.tsx";
import { MarkdownView } from "../../../components/markdown-view.tsx";
import { SearchBox } from "../../../components/search-box.tsx";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { TitledSection } from "../../../components/ui/titled-section.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { fetchFile } from "../../../lib/uploads.ts";
import { useHelpArticle } from "../api/kb.queries.ts";
import { HelpFeedback } from "../components/help-feedback.tsx";
import { HelpNotFound } from "../components/help-not-found.tsx";
import { formatDate } from "../components/kb-format.ts";

/** /help/{orgSlug}/articles/{articleSlug}: one published article (the address the AI assistant cites). */
export function HelpArticleRoute() {
  const { orgSlug = "", articleSlug = "" } = useParams();
  const navigate = useNavigate();
  const query = useHelpArticle(orgSlug, articleSlug);
  const home = helpCenterPath(orgSlug);

  if (query.isPending) {
    return <Loading label="Loading the article" className="py-24 text-(--brand-text,var(--color-indigo-600))" />;
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      // The same answer for an unknown help center and an unknown article there: say which it is.
      const noCenter = query.error.message === "Help center not found";
      return <HelpNotFound what={noCenter ? "help center" : "article"} home={noCenter ? undefined : home} />;
    }
    return (
      <div className="mx-auto max-w-xl space-y-3 px-4 py-16">
        <Alert>
          <p className="font-semibold">The article could not be loaded</p>
          <p>{query.error.message}</p>
        </Alert>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const { organization, article, related } = query.data;
  return (
    <div className="mx-auto w-full max-w-3xl space-y-8 px-4 py-8 sm:px-6">
      <title>{`${article.title} · ${organization.name} Help Center`}</title>
      <SearchBox
        label={`Search the ${organization.name} help center`}
        hideLabel
        placeholder="Search for answers…"
        maxLength={KB_SEARCH_MAX}
        value=""
        onSearch={(search) => {
          if (search) navigate(`${home}?q=${encodeURIComponent(search)}`);
        }}
      />
      <nav aria-label="Breadcrumb">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
          <li>
            <Link to={home} className="hover:text-(--brand-text,var(--color-indigo-700)) hover:underline">
              Help Center
            </Link>
          </li>
          {article.category && (
            <li className="flex items-center gap-1">
              <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
              <Link
                to={`${home}#category-${article.category.slug}`}
                className="break-words hover:text-(--brand-text,var(--color-indigo-700)) hover:underline"
              >
                {article.category.name}
              </Link>
            </li>
          )}
        </ol>
      </nav>
      <article aria-labelledby="help-article-title" className="space-y-6">
        <header className="space-y-2">
          <h1 id="help-article-title" className="text-3xl font-semibold tracking-tight break-words text-slate-900">
            {article.title}
          </h1>
          <p className="text-sm text-slate-500">Updated {formatDate(article.updated_at)}</p>
        </header>
        <MarkdownView source={article.body} />
        <AttachmentList
          files={article.attachments}
          fetchFile={(file) => fetchFile(helpArticleFilePath(orgSlug, article.slug, file.id), undefined, file.filename)}
        />
      </article>
      <HelpFeedback key={article.slug} orgSlug={orgSlug} articleSlug={article.slug} />
      {related.length > 0 && (
        <TitledSection
          titleId="related-title"
          title="Related articles"
          className="border-t border-slate-200 pt-6"
          titleClassName="text-base font-semibold text-slate-900"
        >
          <ul className="mt-3 space-y-2">
            {related.map((r) => (
              <li key={r.id}>
                <Link
                  to={helpArticlePath(orgSlug, r.slug)}
                  className="text-sm break-words text-(--brand-text,var(--color-indigo-700)) hover:opacity-80 hover:underline"
                >
                  {r.title}
                </Link>
              </li>
            ))}
          </ul>
        </TitledSection>
      )}
    </div>
  );
}
