import { Inbox } from "lucide-react";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { formatDate, PriorityBadge, StatusBadge, useTicketList } from "../../tickets/index.ts";

/** Spec: 10 are fetched, the first 5 shown. */
const FETCHED = 10;
const SHOWN = 5;
const rowClasses = "flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between";

export function RecentTickets() {
  const recent = useTicketList({ page: 1, limit: FETCHED });

  return (
    <section aria-labelledby="recent-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 id="recent-heading" className="font-semibold text-slate-900">
          Recent Tickets
        </h2>
        <Link to="/tickets" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
          View all
        </Link>
      </div>
      {recent.isPending ? (
        // As tall as the five rows that usually follow, so what is below does not move when they come.
        <div className="relative">
          <ul aria-hidden="true" className="invisible divide-y divide-slate-100">
            {Array.from({ length: SHOWN }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows.
              <li key={i} className={rowClasses}>
                <span>
                  <span className="block text-xs">#</span>
                  <span className="block font-medium">&nbsp;</span>
                </span>
                <span className="flex items-center gap-2">
                  <StatusBadge status="open" />
                </span>
              </li>
            ))}
          </ul>
          <div className="absolute inset-0 flex items-center justify-center text-indigo-600">
            <Spinner className="size-5" label="Loading recent tickets" />
          </div>
        </div>
      ) : recent.isError ? (
        <div className="p-4">
          <Alert>
            <p className="font-semibold">Error loading tickets</p>
            <p>{recent.error.message}</p>
          </Alert>
        </div>
      ) : recent.data.tickets.length === 0 ? (
        <div className="flex flex-col items-center gap-3 px-6 py-10 text-center">
          <Inbox className="size-8 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-600">No tickets yet. New requests will show up here.</p>
          <Link to="/tickets/new" className={buttonClasses("primary", "sm")}>
            Create a ticket
          </Link>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.data.tickets.slice(0, SHOWN).map((ticket) => (
            <li key={ticket.id}>
              <Link to={`/tickets/${ticket.id}`} className={`${rowClasses} hover:bg-slate-50`}>
                <span className="min-w-0">
                  <span className="text-xs font-medium text-slate-500">#{ticket.ticket_number}</span>
                  <span className="block truncate font-medium text-slate-900">{ticket.subject}</span>
                </span>
                <span className="flex shrink-0 flex-wrap items-center gap-2">
                  <StatusBadge status={ticket.status} />
                  <PriorityBadge priority={ticket.priority} />
                  <time dateTime={ticket.created_at} className="text-xs text-slate-500">
                    {formatDate(ticket.created_at)}
                  </time>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
