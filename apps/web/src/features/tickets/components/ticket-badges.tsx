import type { TicketPriority, TicketStatus } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { PRIORITY_LABELS, STATUS_LABELS } from "./ticket-format.ts";

// Each badge says its value in words; the colour only helps scanning. Dark text on a pale fill keeps AA contrast.
const statusClasses: Record<TicketStatus, string> = {
  open: "bg-blue-50 text-blue-800 ring-blue-600/20",
  pending: "bg-amber-50 text-amber-800 ring-amber-600/30",
  solved: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  closed: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

const priorityClasses: Record<TicketPriority, string> = {
  low: "bg-slate-50 text-slate-700 ring-slate-500/20",
  normal: "bg-sky-50 text-sky-800 ring-sky-600/20",
  high: "bg-orange-50 text-orange-800 ring-orange-600/30",
  urgent: "bg-red-50 text-red-800 ring-red-600/30",
};

const base =
  "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset";

export function StatusBadge({ status }: { status: TicketStatus }) {
  return (
    <span className={clsx(base, statusClasses[status])} data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: TicketPriority }) {
  return (
    <span className={clsx(base, priorityClasses[priority])} data-priority={priority}>
      {priority === "urgent" && <span aria-hidden="true" className="mr-1 size-1.5 rounded-full bg-red-600" />}
      {PRIORITY_LABELS[priority]}
    </span>
  );
}
