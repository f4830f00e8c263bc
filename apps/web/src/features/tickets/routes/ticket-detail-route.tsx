import { Reply } from "lucide-react";
import { useState } from "react";
import { Link, useLocation, useParams } from "react-router";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button, buttonClasses } from "../../../components/ui/button.tsx";
import { Loading, NotFound } from "../../../components/ui/load-states.tsx";
import { ActionRow, BackLink } from "../../../components/ui/page-header.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { usePresence } from "../../../lib/realtime-provider.tsx";
import { SlaPanel } from "../../automation/index.ts";
import { CustomerPanel } from "../../contacts/index.ts";
import { useTicket } from "../api/tickets.queries.ts";
import { ReplyForm } from "../components/reply-form.tsx";
import { PriorityBadge, StatusBadge } from "../components/ticket-badges.tsx";
import { TicketConversation } from "../components/ticket-conversation.tsx";
import { TicketSidePanel } from "../components/ticket-side-panel.tsx";
import type { TicketLinkState } from "../components/ticket-table.tsx";
import { TicketViewers } from "../components/ticket-viewers.tsx";

const ticketId = z.uuid();

/** Back to the list as it was left (filters and page), when the ticket was opened from it. */
function useListPath(): string {
  const state: unknown = useLocation().state;
  if (typeof state === "object" && state !== null && "listSearch" in state) {
    const { listSearch } = state as TicketLinkState;
    if (typeof listSearch === "string" && (listSearch === "" || listSearch.startsWith("?")))
      return `/tickets${listSearch}`;
  }
  return "/tickets";
}

export function TicketDetailRoute() {
  const { ticketId: id = "" } = useParams();
  // An address that cannot be a ticket id is simply not found; no need to ask the server.
  if (!ticketId.safeParse(id).success) return <TicketNotFound />;
  // Keyed so that moving to another ticket starts with a closed reply form.
  return <TicketDetail key={id} id={id} />;
}

function TicketDetail({ id }: { id: string }) {
  const query = useTicket(id);
  const listPath = useListPath();
  const [replying, setReplying] = useState(false);
  // Following the ticket keeps it live, and shows who else is on it (and tells them when this member replies).
  const presence = usePresence(`ticket:${id}`);

  if (query.isPending) {
    return <Loading label="Loading ticket" />;
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <TicketNotFound />;
    return (
      <div className="space-y-4">
        <Alert>
          <p className="font-semibold">Error loading ticket</p>
          <p>{query.error.message}</p>
        </Alert>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
          <Link to={listPath} className={buttonClasses("ghost")}>
            Back to Tickets
          </Link>
        </div>
      </div>
    );
  }

  const ticket = query.data;
  return (
    <div className="space-y-6">
      <title>{`#${ticket.ticket_number} ${ticket.subject} · Cove`}</title>
      <ActionRow>
        <BackLink to={listPath}>Back to List</BackLink>
        <Button
          variant={replying ? "secondary" : "primary"}
          aria-expanded={replying}
          aria-controls="reply-area"
          onClick={() => setReplying((open) => !open)}
        >
          <Reply className="size-4" aria-hidden="true" />
          Reply
        </Button>
      </ActionRow>
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">
          <span className="text-slate-500">#{ticket.ticket_number}</span> {ticket.subject}
        </h1>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap gap-2">
            <StatusBadge status={ticket.status} />
            <PriorityBadge priority={ticket.priority} />
          </div>
          <TicketViewers viewers={presence.viewers} />
        </div>
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <TicketConversation ticket={ticket} />
          <div id="reply-area">
            {replying && (
              <ReplyForm ticketId={ticket.id} onClose={() => setReplying(false)} onTyping={presence.typing} />
            )}
          </div>
        </div>
        <aside aria-label="Ticket properties" className="min-w-0 space-y-4">
          <TicketSidePanel ticket={ticket} />
          <SlaPanel ticketId={ticket.id} />
          <CustomerPanel ticketId={ticket.id} />
        </aside>
      </div>
    </div>
  );
}

function TicketNotFound() {
  return <NotFound thing="Ticket" backTo="/tickets" backLabel="Back to Tickets" />;
}
