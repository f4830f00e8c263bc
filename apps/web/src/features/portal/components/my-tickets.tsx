import type { CustomerTicket } from "@cove/contract/portal.ts";
import { ChevronLeft, ChevronRight, Inbox, MessageSquare } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { formatDate, formatRelative, PriorityBadge, StatusBadge } from "../../tickets/index.ts";
import { useMyTickets } from "../api/portal.queries.ts";
import { usePortalFollow } from "./portal-live.tsx";

/** My Tickets: the customer's own tickets (spec: customer ticket fields), each opening its conversation. */
export function MyTickets({
  page,
  onPage,
  onOpen,
  onSubmitTicket,
}: {
  page: number;
  onPage: (page: number) => void;
  onOpen: (id: string) => void;
  onSubmitTicket: () => void;
}) {
  const query = useMyTickets(page);
  usePortalFollow(query.data?.tickets.map((t) => t.id) ?? []);

  if (query.isPending) {
    return <Loading label="Loading your tickets" className="py-12 text-[var(--portal-accent-text,#4f46e5)]" />;
  }
  if (query.isError) {
    return <LoadError title="Error loading tickets" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const { tickets, pagination } = query.data;
  if (pagination.total === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <Inbox className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">You have no tickets yet</p>
        <p className="max-w-sm text-sm text-slate-600">When you ask us something, it shows here with our answers.</p>
        <Button onClick={onSubmitTicket}>Submit Ticket</Button>
      </div>
    );
  }
  return (
    <div className={query.isPlaceholderData ? "opacity-60" : undefined}>
      <ul
        aria-label="My tickets"
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        {tickets.map((ticket) => (
          <TicketRow key={ticket.id} ticket={ticket} onOpen={onOpen} />
        ))}
      </ul>
      {pagination.pages > 1 && (
        <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm text-slate-600">
          <span>
            Page {pagination.page} of {pagination.pages}
          </span>
          <span className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </Button>
            <Button variant="secondary" size="sm" disabled={page >= pagination.pages} onClick={() => onPage(page + 1)}>
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </Button>
          </span>
        </nav>
      )}
    </div>
  );
}

function TicketRow({ ticket, onOpen }: { ticket: CustomerTicket; onOpen: (id: string) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(ticket.id)}
        className="flex w-full flex-col gap-2 p-4 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-[var(--portal-accent-text,#4f46e5)] sm:flex-row sm:items-center sm:justify-between"
      >
        <span className="min-w-0">
          <span className="block font-medium break-words text-slate-900">
            <span className="text-slate-500">#{ticket.ticket_number}</span> {ticket.subject}
          </span>
          <span className="mt-1 block text-xs text-slate-500">
            Created {formatDate(ticket.created_at)} · Updated {formatRelative(ticket.updated_at)}
          </span>
        </span>
        <span className="flex shrink-0 items-center gap-2">
          <span className="inline-flex items-center gap-1 text-xs text-slate-500" title="Replies">
            <MessageSquare className="size-3.5" aria-hidden="true" />
            <span className="sr-only">Replies:</span>
            {ticket.comment_count}
          </span>
          <StatusBadge status={ticket.status} />
          <PriorityBadge priority={ticket.priority} />
        </span>
      </button>
    </li>
  );
}
