import { TICKET_PAGE_SIZE } from "@cove/contract/tickets.ts";
import { Inbox, Plus, Users } from "lucide-react";
import { useMemo } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { EmptyList, LoadError, Loading, Pager } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
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
      <PageHeader
        title="Tickets"
        lead="Every conversation with your customers, in one queue."
        actions={
          <>
            <Link to="/contacts" className={buttonClasses("secondary")}>
              <Users className="size-4" aria-hidden="true" />
              Contacts
            </Link>
            <Link to="/tickets/new" className={buttonClasses("primary")}>
              <Plus className="size-4" aria-hidden="true" />
              New Ticket
            </Link>
          </>
        }
      />

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
          <Loading label="Loading tickets" />
        ) : list.isError ? (
          <LoadError
            className="space-y-3 p-4"
            title="Error loading tickets"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.data.tickets.length === 0 ? (
          <EmptyList
            filtered={hasFilters(params)}
            pastTheEnd={list.data.pagination.total > 0}
            onClear={clearFilters}
            onFirstPage={() => show({ ...params, page: 1 })}
            noun="tickets"
            icon={Inbox}
            emptyText="Tickets from email, chat and the customer portal show up here. You can also create one yourself."
            emptyAction={
              <Link to="/tickets/new" className={buttonClasses("primary")}>
                New Ticket
              </Link>
            }
            className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center lg:border-0"
            textClassName="max-w-sm text-sm text-slate-600"
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
