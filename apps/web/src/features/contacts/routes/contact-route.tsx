import type { ContactChat } from "@cove/contract/contacts.ts";
import { Building2, Mail, UserRound } from "lucide-react";
import { Link, useParams } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { BackLink } from "../../../components/ui/page-header.tsx";
import { PANEL, TitledSection } from "../../../components/ui/titled-section.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { formatDate } from "../../tickets/index.ts";
import { useContact } from "../api/contacts.queries.ts";
import { ContactTickets } from "../components/contact-tickets.tsx";
import { CustomerDataPanel } from "../components/customer-data-panel.tsx";

const CHAT_STATUS_LABELS: Record<ContactChat["status"], string> = {
  active: "Active",
  closed: "Closed",
  transferred: "Became a ticket",
};

/** /contacts/{id}: one customer with their tickets and live chats. */
export function ContactRoute() {
  const { contactId = "" } = useParams();
  const query = useContact(contactId);
  const { user } = useAuth();
  const back = <BackLink to="/contacts">Back to Contacts</BackLink>;
  if (query.isPending) {
    return <Loading label="Loading contact" />;
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="space-y-4">
        {back}
        <Alert>
          <p className="font-semibold">{missing ? "Contact not found" : "Error loading contact"}</p>
          <p>{missing ? "It may have been removed, or the link is wrong." : query.error.message}</p>
        </Alert>
      </div>
    );
  }
  const { contact, tickets, chats } = query.data;
  return (
    <div className="space-y-6">
      <title>{`${contact.name} · Contacts · Cove`}</title>
      {back}
      <header className="space-y-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight break-words text-slate-900">
          <UserRound className="size-6 shrink-0 text-slate-400" aria-hidden="true" />
          <span className="min-w-0">{contact.name}</span>
        </h1>
        <div className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
          {contact.email && (
            <span className="flex items-center gap-1.5">
              <Mail className="size-4 text-slate-400" aria-hidden="true" />
              <span className="break-all">{contact.email}</span>
            </span>
          )}
          {contact.company && (
            <span className="flex items-center gap-1.5">
              <Building2 className="size-4 text-slate-400" aria-hidden="true" />
              {contact.company}
            </span>
          )}
          <span>Customer since {formatDate(contact.created_at)}</span>
        </div>
      </header>
      <section aria-labelledby="contact-tickets" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="contact-tickets" className="font-semibold text-slate-900">
          Tickets ({contact.ticket_count})
        </h2>
        {tickets.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No tickets yet.</p>
        ) : (
          <ContactTickets tickets={tickets} />
        )}
        {contact.ticket_count > tickets.length && (
          <p className="mt-2 text-xs text-slate-500">The newest {tickets.length} are shown.</p>
        )}
      </section>
      <TitledSection
        titleId="contact-chats"
        title="Live chats"
        className={PANEL}
        titleClassName="font-semibold text-slate-900"
      >
        {chats.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No live chats yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {chats.map((chat) => (
              <li key={chat.id} className="py-2">
                <Link to={`/chat?session=${chat.id}`} className="block rounded-md text-sm hover:text-indigo-600">
                  <span className="font-medium text-slate-900">{formatDate(chat.started_at)}</span>
                  <span className="ml-2 text-xs text-slate-500">
                    {CHAT_STATUS_LABELS[chat.status]}
                    {chat.resolved_by_ai ? " · resolved by the assistant" : ""}
                  </span>
                  {chat.last_message && <span className="block truncate text-slate-600">{chat.last_message}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </TitledSection>
      {user?.role === "admin" && <CustomerDataPanel contact={contact} />}
    </div>
  );
}
