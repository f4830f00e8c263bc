import { type HelpCenterAnswer, helpArticlePath, helpCenterPath, KB_SEARCH_MAX } from "@cove/contract/kb.ts";
import { FileText } from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { SearchBox } from "../../../components/search-box.tsx";
import { Alert } from "../../../components/ui/alert.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useHelpCenter, useHelpSearch } from "../api/kb.queries.ts";
import { HelpNotFound } from "../components/help-not-found.tsx";

/** /help/{orgSlug}: search, and every published article by category. `?q=` holds the search. */
export function HelpCenterRoute() {
  const { orgSlug = "" } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = (searchParams.get("q") ?? "").trim().slice(0, KB_SEARCH_MAX);
  const center = useHelpCenter(orgSlug);

  if (center.isPending) {
    return <Loading label="Loading the help center" className="py-24 text-(--brand-text,var(--color-indigo-600))" />;
  }
  if (center.isError) {
    if (center.error instanceof ApiError && center.error.status === 404) return <HelpNotFound what="help center" />;
    return (
      <LoadError
        className="mx-auto max-w-xl space-y-3 px-4 py-16"
        title="The help center could not be loaded"
        error={center.error}
        onRetry={() => void center.refetch()}
      />
    );
  }

  const { organization } = center.data;
  return (
    <>
      <title>{`${organization.name} Help Center`}</title>
      <section className="border-b border-slate-200 bg-(--brand,var(--color-indigo-700)) px-4 py-12 text-(--brand-ink,var(--color-white)) sm:py-16">
        <div className="mx-auto max-w-2xl space-y-5 text-center">
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">How can we help?</h1>
          <SearchBox
            large
            hideLabel
            label={`Search the ${organization.name} help center`}
            placeholder="Search for answers…"
            maxLength={KB_SEARCH_MAX}
            value={q}
            className="text-left text-slate-900"
            onSearch={(search, replace) => setSearchParams(search ? { q: search } : {}, { replace })}
          />
        </div>
      </section>
      <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6">
        {q ? <SearchResults orgSlug={orgSlug} q={q} /> : <Categories orgSlug={orgSlug} center={center.data} />}
      </div>
    </>
  );
}

function Categories({ orgSlug, center }: { orgSlug: string; center: HelpCenterAnswer }) {
  const sections = [
    ...center.categories.map((c) => ({ key: c.id, id: `category-${c.slug}`, name: c.name, articles: c.articles })),
    ...(center.uncategorized.length > 0
      ? [{ key: "more", id: "more-articles", name: "More articles", articles: center.uncategorized }]
      : []),
  ];
  if (sections.length === 0) {
    return (
      <p className="py-12 text-center text-slate-600">
        There are no articles here yet. Please check back soon, or contact {center.organization.name} directly.
      </p>
    );
  }
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {sections.map((section) => (
        <section
          key={section.key}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id={`${section.id}-title`} className="text-lg font-semibold break-words text-slate-900">
            {section.name}
          </h2>
          <ul className="mt-3 space-y-2">
            {section.articles.map((article) => (
              <li key={article.id}>
                <Link
                  to={helpArticlePath(orgSlug, article.slug)}
                  className="flex gap-2 rounded text-sm break-words text-(--brand-text,var(--color-indigo-700)) hover:opacity-80 hover:underline"
                >
                  <FileText className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                  <span className="min-w-0">{article.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function SearchResults({ orgSlug, q }: { orgSlug: string; q: string }) {
  const search = useHelpSearch(orgSlug, q);
  if (search.isPending) {
    return <Loading label="Searching" className="py-12 text-(--brand-text,var(--color-indigo-600))" />;
  }
  if (search.isError) {
    return (
      <Alert>
        <p className="font-semibold">The search did not work</p>
        <p>{search.error.message}</p>
      </Alert>
    );
  }
  const { results } = search.data;
  return (
    <section aria-labelledby="results-title" className={search.isPlaceholderData ? "opacity-60" : undefined}>
      <h2 id="results-title" className="text-lg font-semibold break-words text-slate-900">
        {results.length === 0
          ? `No articles match “${q}”`
          : `${results.length} ${results.length === 1 ? "result" : "results"} for “${q}”`}
      </h2>
      {results.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Try fewer or different words.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {results.map((r) => (
            <li key={r.id} className="p-4 sm:p-5">
              <Link
                to={helpArticlePath(orgSlug, r.slug)}
                className="font-medium break-words text-(--brand-text,var(--color-indigo-700)) hover:opacity-80 hover:underline"
              >
                {r.title}
              </Link>
              {r.category_name && <p className="mt-0.5 text-xs text-slate-500">{r.category_name}</p>}
              {r.excerpt && <p className="mt-1.5 text-sm break-words text-slate-600">{r.excerpt}</p>}
            </li>
          ))}
        </ul>
      )}
      {results.length === 0 && (
        <p className="mt-4">
          <Link
            to={helpCenterPath(orgSlug)}
            className="text-sm font-medium text-(--brand-text,var(--color-indigo-700)) hover:underline"
          >
            Browse all topics
          </Link>
        </p>
      )}
    </section>
  );
}
