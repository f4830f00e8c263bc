import type { TicketSummary } from "@cove/contract/tickets.ts";
import { Link, useNavigate } from "react-router";
import { SlaDue, useMinuteClock } from "./sla-due.tsx";
import { PriorityBadge, StatusBadge } from "./ticket-badges.tsx";
import { formatDateTime, formatRelative, personName } from "./ticket-format.ts";

/** Lets the detail page's "Back to List" return to the same filters and page. */
export interface TicketLinkState {
  listSearch: string;
}

// Below the large breakpoint each row is a card: cells stack and name themselves (data-label), so there is one table
// for both. As a table the subject keeps at least half the row: the secondary columns give way as the window narrows
// (Requester always, Assignee below xl, SLA below 2xl) and what they held moves to a line under the subject.
// Each cell says itself at which widths it is a table cell (lg:table-cell, or lg:hidden and a wider one).
const cell = "flex min-w-0 flex-col items-start gap-0.5 lg:px-3 lg:py-3 lg:align-middle";
const labelled = `${cell} before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] lg:before:content-none`;
const headCell = "px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";

export function TicketTable({ tickets, listSearch }: { tickets: TicketSummary[]; listSearch: string }) {
  const navigate = useNavigate();
  const state: TicketLinkState = { listSearch };
  const now = useMinuteClock();

  return (
    // Fixed layout: the secondary columns keep their widths, the subject takes the rest, and a long subject is cut
    // (full text on hover) instead of pushing the other columns out of the card.
    <table className="block w-full lg:table lg:table-fixed lg:divide-y lg:divide-slate-200">
      <caption className="sr-only">Tickets</caption>
      <thead className="hidden bg-slate-50 lg:table-header-group">
        <tr>
          <th scope="col" className={`${headCell} lg:pl-4`}>
            Ticket
          </th>
          <th scope="col" className={`${headCell} w-24`}>
            Status
          </th>
          <th scope="col" className={`${headCell} w-28`}>
            Priority
          </th>
          <th scope="col" className={`${headCell} hidden`}>
            Requester
          </th>
          <th scope="col" className={`${headCell} hidden w-32 xl:table-cell`}>
            Assignee
          </th>
          <th scope="col" className={`${headCell} hidden w-32 2xl:table-cell`}>
            SLA
          </th>
          <th scope="col" className={`${headCell} w-24`}>
            Updated
          </th>
        </tr>
      </thead>
      <tbody className="block space-y-3 lg:table-row-group lg:space-y-0 lg:divide-y lg:divide-slate-200">
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
              className="grid cursor-pointer grid-cols-2 gap-x-4 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:bg-slate-50 lg:table-row lg:rounded-none lg:border-0 lg:p-0 lg:shadow-none"
            >
              <td className="col-span-2 block min-w-0 lg:table-cell lg:py-3 lg:pr-3 lg:pl-4">
                <span className="text-xs font-medium text-slate-500">#{ticket.ticket_number}</span>
                <Link
                  to={to}
                  state={state}
                  title={ticket.subject}
                  className="block font-medium break-words text-slate-900 hover:text-indigo-600 lg:truncate"
                >
                  {ticket.subject}
                </Link>
                {/* What the hidden columns hold, in the table's narrower widths (the cards show their own cells). */}
                <span className="mt-1 hidden min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 lg:flex">
                  <span className="max-w-full truncate" title={ticket.requester_email}>
                    From {ticket.requester_name}
                  </span>
                  <span className="max-w-full truncate xl:hidden">
                    {assignee ? `Assigned to ${assignee}` : "Unassigned"}
                  </span>
                  <span className="2xl:hidden">
                    <SlaDue ticket={ticket} now={now} inline />
                  </span>
                </span>
              </td>
              <td data-label="Status" className={`${labelled} lg:table-cell`}>
                <StatusBadge status={ticket.status} />
              </td>
              <td data-label="Priority" className={`${labelled} lg:table-cell`}>
                <PriorityBadge priority={ticket.priority} />
              </td>
              <td data-label="Requester" className={`${labelled} col-span-2 lg:hidden`}>
                <span className="block w-full min-w-0">
                  <span className="block truncate text-sm text-slate-900" title={ticket.requester_name}>
                    {ticket.requester_name}
                  </span>
                  <span className="block truncate text-xs text-slate-500" title={ticket.requester_email}>
                    {ticket.requester_email}
                  </span>
                </span>
              </td>
              <td data-label="Assignee" className={`${labelled} text-sm lg:hidden xl:table-cell`}>
                {assignee ? (
                  <span className="block w-full truncate text-slate-900" title={assignee}>
                    {assignee}
                  </span>
                ) : (
                  <span className="text-slate-500 italic">Unassigned</span>
                )}
              </td>
              <td data-label="SLA" className={`${labelled} text-sm lg:hidden 2xl:table-cell`}>
                <SlaDue ticket={ticket} now={now} />
              </td>
              <td data-label="Updated" className={`${labelled} text-sm text-slate-600 lg:table-cell`}>
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
