import type { Pagination } from "@cove/contract/tickets.ts";
import { ChevronLeft, ChevronRight, FileQuestion, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Alert } from "./alert.tsx";
import { Button, buttonClasses } from "./button.tsx";
import { Spinner } from "./spinner.tsx";

/**
 * What a list or page shows while its data loads the first time. `className`: its room and colour, where they differ
 * (the portal and the help center turn in the organization's colour).
 */
export function Loading({ label, className = "py-16 text-indigo-600" }: { label: string; className?: string }) {
  return (
    <div className={`flex justify-center ${className}`}>
      <Spinner className="size-6" label={label} />
    </div>
  );
}

interface LoadErrorProps {
  /** "Error loading tickets": what could not be loaded, in the screen's words. */
  title: string;
  /** The server's message, when there is one. */
  error?: Error | null;
  onRetry: () => void;
  /** More ways out beside Try again (a link back to the list). */
  children?: ReactNode;
  className?: string;
}

/** A failed load: what failed, why, and Try again. */
export function LoadError({ title, error, onRetry, children, className = "space-y-3" }: LoadErrorProps) {
  return (
    <div className={className}>
      <Alert>
        <p className="font-semibold">{title}</p>
        {error?.message ? <p>{error.message}</p> : null}
      </Alert>
      <div className="flex gap-3">
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
        {children}
      </div>
    </div>
  );
}

const count = new Intl.NumberFormat("en-US");

/**
 * "Showing 1 to 20 of 57 articles" with Previous and Next. A capped total (a search that stopped counting) shows a
 * "+" and, on its last page, how to narrow the search.
 */
export function Pager({
  pagination,
  noun,
  onPage,
}: {
  pagination: Pagination;
  noun: string;
  onPage: (page: number) => void;
}) {
  const { page, limit, total, pages, capped } = pagination;
  const from = total === 0 ? 0 : Math.min((page - 1) * limit + 1, total);
  const to = Math.min(page * limit, total);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row"
    >
      <p className="text-sm text-slate-700">
        Showing {count.format(from)} to {count.format(to)} of {count.format(total)}
        {capped ? "+" : ""} {noun}
      </p>
      {capped && page >= pages ? (
        <p className="text-sm text-slate-500">Search shows the best of the newest matches: add a word to narrow it.</p>
      ) : null}
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

interface EmptyListProps {
  /** What the list holds ("articles"): "No articles match these filters". */
  noun: string;
  /** Filters or a search are on. */
  filtered: boolean;
  /** The list has rows, but not as many as this page number needs. */
  pastTheEnd: boolean;
  onClear: () => void;
  onFirstPage: () => void;
  /** A list with nothing in it yet: its icon, what it is for, and the way to make the first one. */
  icon: LucideIcon;
  emptyText: string;
  emptyAction: ReactNode;
  /** The box's outline goes where the list becomes a card (the list's own breakpoint) and its text's width. */
  className: string;
  textClassName: string;
}

/** An empty page of a filtered, paged list: past its end, nothing matching, or nothing yet; each with its way out. */
export function EmptyList(props: EmptyListProps) {
  const { noun, filtered, pastTheEnd, icon: Icon } = props;
  const [title, text, action] = pastTheEnd
    ? [
        "This page is empty",
        "The list is shorter than this page number.",
        <Button key="first" variant="secondary" onClick={props.onFirstPage}>
          Go to the first page
        </Button>,
      ]
    : filtered
      ? [
          `No ${noun} match these filters`,
          "Try other filters or a different search.",
          <Button key="clear" variant="secondary" onClick={props.onClear}>
            Clear filters
          </Button>,
        ]
      : [`No ${noun} yet`, props.emptyText, props.emptyAction];
  return (
    <div className={props.className}>
      <Icon className="size-8 text-slate-400" aria-hidden="true" />
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className={props.textClassName}>{text}</p>
      {action}
    </div>
  );
}

/**
 * A page whose record does not exist (a malformed id or a 404): "<thing> not found" as the page's title and heading,
 * and the way back to the list.
 */
export function NotFound({ thing, backTo, backLabel }: { thing: string; backTo: string; backLabel: string }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <title>{`${thing} not found · Cove`}</title>
      <FileQuestion className="size-8 text-slate-400" aria-hidden="true" />
      <h1 className="text-xl font-semibold text-slate-900">{thing} not found</h1>
      <p className="max-w-sm text-sm text-slate-600">It may have been deleted, or the link is wrong.</p>
      <Link to={backTo} className={buttonClasses("primary")}>
        {backLabel}
      </Link>
    </div>
  );
}
