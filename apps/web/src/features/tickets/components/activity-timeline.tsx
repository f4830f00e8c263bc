import { type Activity, TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import { formatDateTime, PRIORITY_LABELS, STATUS_LABELS } from "./ticket-format.ts";

function label(type: "status" | "priority", value: string | null): string {
  if (value === null) return "none";
  const status = TICKET_STATUSES.find((s) => s === value);
  const priority = TICKET_PRIORITIES.find((p) => p === value);
  if (type === "status" && status) return STATUS_LABELS[status];
  if (type === "priority" && priority) return PRIORITY_LABELS[priority];
  return value;
}

/** One line per change, in words: who did what. */
export function describeActivity(entry: Activity): string {
  const who = entry.actor_name || "Someone";
  const { from_value: from, to_value: to } = entry;
  switch (entry.type) {
    case "created":
      return `${who} created the ticket`;
    case "status":
    case "priority":
      return `${who} changed ${entry.type} from ${label(entry.type, from)} to ${label(entry.type, to)}`;
    case "assignee":
      if (to === null) return from ? `${who} unassigned ${from}` : `${who} unassigned the ticket`;
      return from ? `${who} reassigned the ticket from ${from} to ${to}` : `${who} assigned the ticket to ${to}`;
    case "tags":
      return to ? `${who} set the tags to ${to}` : `${who} removed all tags`;
  }
}

export function ActivityTimeline({ activity }: { activity: Activity[] }) {
  const entries = [...activity].sort((a, b) => a.created_at.localeCompare(b.created_at));
  if (entries.length === 0) return <p className="text-sm text-slate-500">No activity yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-4">
      {entries.map((entry) => (
        <li key={entry.id} className="relative">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-indigo-400 ring-4 ring-white"
          />
          <p className="text-sm break-words text-slate-700">{describeActivity(entry)}</p>
          <time dateTime={entry.created_at} className="text-xs text-slate-500">
            {formatDateTime(entry.created_at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
