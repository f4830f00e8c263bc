import { dueState } from "@cove/contract/sla.ts";
import type { TicketSummary } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { useEffect, useState } from "react";
import { formatDateTime, formatRelative } from "./ticket-format.ts";

const KIND_TEXT = { first_response: "First response", resolution: "Resolution" } as const;
const STATE = {
  on_track: { text: "On track", className: "bg-slate-100 text-slate-700" },
  close: { text: "Close to breach", className: "bg-amber-100 text-amber-800" },
  breached: { text: "Breached", className: "bg-red-100 text-red-800" },
} as const;

/** The time now, again every minute: a due time turns close and breached while the list stays on screen. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * A ticket's next SLA due time in the list: which one, when, and the same warnings as the ticket's SLA panel (close
 * to breach, breached), worked out here from the due time so a list fetched a while ago still changes on time.
 */
export function SlaDue({ ticket, now, inline = false }: { ticket: TicketSummary; now: Date; inline?: boolean }) {
  const due = ticket.sla_due;
  if (!due) return inline ? null : <span className="text-slate-500">—</span>;
  const state = STATE[dueState(ticket.created_at, due.due_at, now)];
  return (
    // In its own column the badge sits over the due time; on the line under a subject (inline), beside it.
    <span className={inline ? "flex items-center gap-1.5" : "flex flex-col items-start gap-0.5"}>
      <span className={clsx("rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap", state.className)}>
        {state.text}
      </span>
      <span className="text-xs text-slate-600">
        {KIND_TEXT[due.kind]}{" "}
        <time dateTime={due.due_at} title={formatDateTime(due.due_at)}>
          {formatRelative(due.due_at, now.getTime())}
        </time>
      </span>
    </span>
  );
}
