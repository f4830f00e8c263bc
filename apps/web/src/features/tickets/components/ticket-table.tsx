import type { TicketSummary } from "@cove/contract/tickets.ts";
import { Link, useNavigate } from "react-router";
import { SlaDue, useMinuteClock } from "./sla-due.tsx";
import { PriorityBadge, StatusBadge } from "./ticket-badges.tsx";
import { formatDateTime, formatRelative, personName } from "./ticket-format.ts";

/** Lets the detail page's "Back to List" return to the same filters and page. */
export interface TicketLinkState {
  listSearch: string;
}

// On phones each row becomes a card: cells stack and name themselves (data-label), so there is one table for both.
const cell = "flex min-w-0 flex-col items-start gap-0.5 md:table-cell md:px-4 md:py-3 md:align-middle";
const labelled = `${cell} before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] md:before:content-none`;
const headCell = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";

export function TicketTable({ tickets, listSearch }: { tickets: TicketSummary[]; listSearch: string }) {
  const navigate = useNavigate();
  const state: TicketLinkState = { listSearch };
  const now = useMinuteClock();

  return (
    // Fixed layout: the columns keep their widths and a long subject or requester is cut (full text on hover) instead of
    // pushing Assignee and Updated out of the card.
    <table className="block w-full md:table md:table-fixed md:divide-y md:divide-slate-200">
      <caption className="sr-only">Tickets</caption>
      <thead className="hidden bg-slate-50 md:table-header-group">
        <tr>
          <th scope="col" className={headCell}>
            Ticket
          </th>
          <th scope="col" className={`${headCell} md:w-28`}>
            Status
          </th>
          <th scope="col" className={`${headCell} md:w-28`}>
            Priority
          </th>
          <th scope="col" className={`${headCell} md:w-52`}>
            Requester
          </th>
          <th scope="col" className={`${headCell} md:w-40`}>
            Assignee
          </th>
          <th scope="col" className={`${headCell} md:w-40`}>
            SLA
          </th>
          <th scope="col" className={`${headCell} md:w-32`}>
            Updated
          </th>
        </tr>
      </thead>
      <tbody className="block space-y-3 md:table-row-group md:space-y-0 md:divide-y md:divide-slate-200">
        {tickets.map((ticket) => {
          const assignee = personName(ticket.assignee_first_name, ticket.assignee_last_name);
          const to = `/tickets/${ticket.id}`;
          return (
            <tr
              key={ticket.id}
              // The whole row opens the ticket for mouse users; the subject link is the keyboard and screen-reader way.
              onClick={(e) => {
                if (!(e.target instanceof Element && e.target.closest("a"))) navigate(to, { state });
              }}
              className="grid cursor-pointer grid-cols-2 gap-x-4 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:bg-slate-50 md:table-row md:rounded-none md:border-0 md:p-0 md:shadow-none"
            >
              <td className="col-span-2 block min-w-0 md:table-cell md:px-4 md:py-3">
                <span className="text-xs font-medium text-slate-500">#{ticket.ticket_number}</span>
                <Link
                  to={to}
                  state={state}
                  title={ticket.subject}
                  className="block font-medium break-words text-slate-900 hover:text-indigo-600 md:truncate"
                >
                  {ticket.subject}
                </Link>
              </td>
              <td data-label="Status" className={labelled}>
                <StatusBadge status={ticket.status} />
              </td>
              <td data-label="Priority" className={labelled}>
                <PriorityBadge priority={ticket.priority} />
              </td>
              <td data-label="Requester" className={`${labelled} col-span-2`}>
                <span className="block w-full min-w-0">
                  <span className="block truncate text-sm text-slate-900" title={ticket.requester_name}>
                    {ticket.requester_name}
                  </span>
                  <span className="block truncate text-xs text-slate-500" title={ticket.requester_email}>
                    {ticket.requester_email}
                  </span>
                </span>
              </td>
              <td data-label="Assignee" className={`${labelled} text-sm`}>
                {assignee ? (
                  <span className="block w-full truncate text-slate-900" title={assignee}>
                    {assignee}
                  </span>
                ) : (
                  <span className="text-slate-500 italic">Unassigned</span>
                )}
              </td>
              <td data-label="SLA" className={`${labelled} text-sm`}>
                <SlaDue ticket={ticket} now={now} />
              </td>
              <td data-label="Updated" className={`${labelled} text-sm whitespace-nowrap text-slate-600`}>
                <time dateTime={ticket.updated_at} title={formatDateTime(ticket.updated_at)}>
                  {formatRelative(ticket.updated_at)}
                </time>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
