import { Building2, Mail, UserRound } from "lucide-react";
import { Link } from "react-router";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useTicketContact } from "../api/contacts.queries.ts";
import { ContactTickets } from "./contact-tickets.tsx";

/** The ticket's customer (a contact) and their other tickets, in the ticket's side panel. */
export function CustomerPanel({ ticketId }: { ticketId: string }) {
  const query = useTicketContact(ticketId);
  return (
    <section aria-label="Customer" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-3 text-sm font-semibold text-slate-900">Customer</h2>
      {query.isPending ? (
        <Spinner className="size-4 text-indigo-600" label="Loading the customer" />
      ) : query.isError ? (
        <p className="text-sm text-slate-600">The customer could not be loaded.</p>
      ) : !query.data.contact ? (
        <p className="text-sm text-slate-600">This ticket has no customer record.</p>
      ) : (
        <div className="space-y-3">
          <div className="space-y-1 text-sm">
            <p className="flex items-center gap-2 font-medium text-slate-900">
              <UserRound className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
              <Link
                to={`/contacts/${query.data.contact.id}`}
                className="min-w-0 break-words text-indigo-700 hover:underline"
              >
                {query.data.contact.name}
              </Link>
            </p>
            {query.data.contact.email && (
              <p className="flex items-center gap-2 text-slate-600">
                <Mail className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <span className="min-w-0 break-all">{query.data.contact.email}</span>
              </p>
            )}
            {query.data.contact.company && (
              <p className="flex items-center gap-2 text-slate-600">
                <Building2 className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                <span className="min-w-0 break-words">{query.data.contact.company}</span>
              </p>
            )}
          </div>
          <div>
            <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Other tickets ({Math.max(0, query.data.contact.ticket_count - 1)})
            </h3>
            {query.data.other_tickets.length === 0 ? (
              <p className="mt-1 text-sm text-slate-600">None: this is their only ticket.</p>
            ) : (
              <ContactTickets tickets={query.data.other_tickets.slice(0, 5)} compact />
            )}
            {query.data.other_tickets.length > 5 && (
              <Link to={`/contacts/${query.data.contact.id}`} className="text-sm text-indigo-700 hover:underline">
                See all their tickets
              </Link>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
