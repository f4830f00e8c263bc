import type { ArticleSummary } from "@cove/contract/kb.ts";
import { Link, useNavigate } from "react-router";
import { ArticleStatusBadge } from "./article-status-badge.tsx";
import { formatCount, formatDate, formatDateTime, helpfulText } from "./kb-format.ts";

/** Lets the article page's "Back to Knowledge Base" return to the same filters and page. */
export interface ArticleLinkState {
  listSearch: string;
}

// On phones each row becomes a card: cells stack and name themselves (data-label), so there is one table for both.
const cell = "flex min-w-0 flex-col items-start gap-0.5 md:table-cell md:px-4 md:py-3 md:align-middle";
const labelled = `${cell} before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] md:before:content-none`;
const headCell = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
const COLUMNS = ["Title", "Category", "Status", "Views", "Helpful", "Updated"];

export function ArticleTable({ articles, listSearch }: { articles: ArticleSummary[]; listSearch: string }) {
  const navigate = useNavigate();
  const state: ArticleLinkState = { listSearch };
  return (
    <table className="block w-full md:table md:divide-y md:divide-slate-200">
      <caption className="sr-only">Articles</caption>
      <thead className="hidden bg-slate-50 md:table-header-group">
        <tr>
          {COLUMNS.map((c) => (
            <th key={c} scope="col" className={headCell}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block space-y-3 md:table-row-group md:space-y-0 md:divide-y md:divide-slate-200">
        {articles.map((article) => {
          const to = `/knowledge-base/${article.id}`;
          return (
            <tr
              key={article.id}
              // The whole row opens the article for mouse users; the title link is the keyboard and screen-reader way.
              onClick={(e) => {
                if (!(e.target instanceof Element && e.target.closest("a"))) navigate(to, { state });
              }}
              className="grid cursor-pointer grid-cols-2 gap-x-4 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:bg-slate-50 md:table-row md:rounded-none md:border-0 md:p-0 md:shadow-none"
            >
              <td className="col-span-2 block min-w-0 md:table-cell md:max-w-md md:px-4 md:py-3">
                <Link
                  to={to}
                  state={state}
                  className="block font-medium break-words text-slate-900 hover:text-indigo-600 md:truncate"
                >
                  {article.title}
                </Link>
              </td>
              <td data-label="Category" className={`${labelled} text-sm`}>
                {article.category_name ? (
                  <span className="max-w-full truncate text-slate-900">{article.category_name}</span>
                ) : (
                  <span className="text-slate-500 italic">None</span>
                )}
              </td>
              <td data-label="Status" className={labelled}>
                <ArticleStatusBadge status={article.status} />
              </td>
              <td data-label="Views" className={`${labelled} text-sm text-slate-700 tabular-nums`}>
                {formatCount(article.view_count)}
              </td>
              <td
                data-label="Helpful"
                className={`${labelled} text-sm whitespace-nowrap text-slate-700 tabular-nums`}
                title={`${article.helpful_count} found it helpful, ${article.not_helpful_count} did not`}
              >
                {helpfulText(article.helpful_count, article.not_helpful_count)}
              </td>
              <td data-label="Updated" className={`${labelled} text-sm whitespace-nowrap text-slate-600`}>
                <time dateTime={article.updated_at} title={formatDateTime(article.updated_at)}>
                  {formatDate(article.updated_at)}
                </time>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
