import { helpArticlePath, KB_SEARCH_MAX } from "@cove/contract/kb.ts";
import { FileText } from "lucide-react";
import { Link } from "react-router";
import { SearchBox } from "../../../components/search-box.tsx";
import { Alert } from "../../../components/ui/alert.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { useHelpArticles } from "../api/portal.queries.ts";

/** Knowledge base: the organization's published articles (its public help center), searchable. */
export function HelpTab({ orgSlug, q, onSearch }: { orgSlug: string; q: string; onSearch: (q: string) => void }) {
  const articles = useHelpArticles(orgSlug, q);
  return (
    <div className="space-y-4">
      <SearchBox
        label="Search help articles"
        placeholder="Search for answers…"
        maxLength={KB_SEARCH_MAX}
        value={q}
        onSearch={(search) => onSearch(search ?? "")}
      />
      {articles.isPending ? (
        <Loading label="Loading articles" className="py-8 text-[var(--portal-accent-text,#4f46e5)]" />
      ) : articles.isError ? (
        <Alert>
          <p className="font-semibold">The articles could not be loaded</p>
          <p>{articles.error.message}</p>
        </Alert>
      ) : articles.data.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-600">
          {q ? `No articles match “${q}”. Try other words, or submit a ticket.` : "There are no help articles yet."}
        </p>
      ) : (
        <ul
          aria-label={q ? `Articles matching ${q}` : "Help articles"}
          className={`divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm ${articles.isPlaceholderData ? "opacity-60" : ""}`}
        >
          {articles.data.map((a) => (
            <li key={a.id} className="p-4">
              <Link
                to={helpArticlePath(orgSlug, a.slug)}
                className="flex gap-2 font-medium break-words text-[var(--portal-accent-text,#4f46e5)] hover:underline"
              >
                <FileText className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <span className="min-w-0">{a.title}</span>
              </Link>
              {a.category_name && <p className="mt-0.5 ml-6 text-xs text-slate-500">{a.category_name}</p>}
              {a.excerpt && <p className="mt-1 ml-6 text-sm break-words text-slate-600">{a.excerpt}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
