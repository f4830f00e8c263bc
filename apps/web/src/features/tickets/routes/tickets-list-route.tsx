import { TICKET_PAGE_SIZE } from "@cove/contract/tickets.ts";
import { Inbox, Plus, Users } from "lucide-react";
import { useMemo } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button, buttonClasses } from "../../../components/ui/button.tsx";
import { Pager } from "../../../components/ui/load-states.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { type TicketListParams, useTicketList } from "../api/tickets.queries.ts";
import { TicketFilters } from "../components/ticket-filters.tsx";
import { hasFilters, readListParams, withFilters, writeListParams } from "../components/ticket-list-params.ts";
import { TicketTable } from "../components/ticket-table.tsx";

export function TicketsListRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const params = useMemo(() => readListParams(searchParams), [searchParams]);
  const list = useTicketList({ ...params, limit: TICKET_PAGE_SIZE });

  function show(next: TicketListParams, replace = false) {
    setSearchParams(writeListParams(next), { replace });
  }
  const clearFilters = () =>
    show(withFilters(params, { status: undefined, priority: undefined, assignee_id: undefined, search: undefined }));

  return (
    <div className="space-y-6">
      <title>Tickets · Cove</title>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Tickets</h1>
          <p className="mt-1 text-sm text-slate-600">Every conversation with your customers, in one queue.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/contacts" className={buttonClasses("secondary")}>
            <Users className="size-4" aria-hidden="true" />
            Contacts
          </Link>
          <Link to="/tickets/new" className={buttonClasses("primary")}>
            <Plus className="size-4" aria-hidden="true" />
            New Ticket
          </Link>
        </div>
      </header>

      <TicketFilters
        params={params}
        onChange={(change, options) => show(withFilters(params, change), options?.replace)}
      />

      <section
        aria-label="Ticket list"
        aria-busy={list.isFetching || undefined}
        className="overflow-hidden lg:rounded-lg lg:border lg:border-slate-200 lg:bg-white lg:shadow-sm"
      >
        {list.isPending ? (
          <div className="flex justify-center py-16 text-indigo-600">
            <Spinner className="size-6" label="Loading tickets" />
          </div>
        ) : list.isError ? (
          <div className="space-y-3 p-4">
            <Alert>
              <p className="font-semibold">Error loading tickets</p>
              <p>{list.error.message}</p>
            </Alert>
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.data.tickets.length === 0 ? (
          <EmptyList
            filtered={hasFilters(params)}
            pastTheEnd={list.data.pagination.total > 0}
            onClear={clearFilters}
            onFirstPage={() => show({ ...params, page: 1 })}
          />
        ) : (
          <div className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
            <TicketTable tickets={list.data.tickets} listSearch={location.search} />
            <Pager pagination={list.data.pagination} noun="results" onPage={(page) => show({ ...params, page })} />
          </div>
        )}
      </section>
    </div>
  );
}

interface EmptyListProps {
  filtered: boolean;
  pastTheEnd: boolean;
  onClear: () => void;
  onFirstPage: () => void;
}

function EmptyList({ filtered, pastTheEnd, onClear, onFirstPage }: EmptyListProps) {
  const [title, text, action] = pastTheEnd
    ? [
        "This page is empty",
        "The list is shorter than this page number.",
        <Button key="first" variant="secondary" onClick={onFirstPage}>
          Go to the first page
        </Button>,
      ]
    : filtered
      ? [
          "No tickets match these filters",
          "Try other filters or a different search.",
          <Button key="clear" variant="secondary" onClick={onClear}>
            Clear filters
          </Button>,
        ]
      : [
          "No tickets yet",
          "Tickets from email, chat and the customer portal show up here. You can also create one yourself.",
          <Link key="new" to="/tickets/new" className={buttonClasses("primary")}>
            New Ticket
          </Link>,
        ];
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center lg:border-0">
      <Inbox className="size-8 text-slate-400" aria-hidden="true" />
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="max-w-sm text-sm text-slate-600">{text}</p>
      {action}
    </div>
  );
}
