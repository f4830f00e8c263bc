import { Inbox } from "lucide-react";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { formatDate, PriorityBadge, StatusBadge, useTicketList } from "../../tickets/index.ts";

/** Spec: 10 are fetched, the first 5 shown. */
const FETCHED = 10;
const SHOWN = 5;

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
        // About as tall as the five rows that usually follow (two lines and the badges each; one row from sm), so what
        // is below does not move when they come.
        <div className="flex min-h-[29.5rem] items-center justify-center text-indigo-600 sm:min-h-[20.25rem]">
          <Spinner className="size-5" label="Loading recent tickets" />
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
              <Link
                to={`/tickets/${ticket.id}`}
                className="flex flex-col gap-2 px-4 py-3 hover:bg-slate-50 sm:flex-row sm:items-center sm:justify-between"
              >
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
