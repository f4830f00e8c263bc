import type { ContactTicket } from "@cove/contract/contacts.ts";
import { Link } from "react-router";
import { formatRelative, PriorityBadge, StatusBadge } from "../../tickets/index.ts";

/** A customer's tickets as links: number, subject, status, priority and when they last changed. */
export function ContactTickets({ tickets, compact = false }: { tickets: ContactTicket[]; compact?: boolean }) {
  return (
    <ul className="divide-y divide-slate-100">
      {tickets.map((t) => (
        <li key={t.id} className="py-2">
          <Link
            to={`/tickets/${t.id}`}
            className="group block rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            <span className="block text-sm break-words text-indigo-700 group-hover:underline">
              <span className="text-slate-500">#{t.ticket_number}</span> {t.subject}
            </span>
            <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
              <StatusBadge status={t.status} />
              {!compact && <PriorityBadge priority={t.priority} />}
              <span>Updated {formatRelative(t.updated_at)}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
