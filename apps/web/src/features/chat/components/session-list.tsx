import type { ChatSession } from "@cove/contract/chat.ts";
import { clsx } from "clsx";
import { RefreshCw } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { ChatStatusBadge } from "./chat-badges.tsx";
import { formatDuration, secondsSince } from "./chat-format.ts";

interface SessionListProps {
  sessions: ChatSession[];
  selectedId: string | null;
  now: number;
  refreshing: boolean;
  onSelect: (id: string) => void;
  onRefresh: () => void;
}

/** The sessions with a refresh button and the count of active ones; waiting ones come first. */
export function SessionList({ sessions, selectedId, now, refreshing, onSelect, onRefresh }: SessionListProps) {
  const active = sessions.filter((s) => s.status === "active").length;
  return (
    <section aria-label="Chat sessions" className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <header className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 className="font-semibold text-slate-900">
          Sessions <span className="text-sm font-normal text-slate-500">({active} active)</span>
        </h2>
        <Button variant="ghost" size="sm" onClick={onRefresh} pending={refreshing} aria-label="Refresh sessions">
          <RefreshCw className="size-4" aria-hidden="true" />
        </Button>
      </header>
      {sessions.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No chat sessions yet.</p>
      ) : (
        <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto">
          {sessions.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => onSelect(s.id)}
                aria-current={s.id === selectedId ? "true" : undefined}
                className={clsx(
                  "w-full px-4 py-3 text-left hover:bg-slate-50",
                  s.id === selectedId && "bg-indigo-50 hover:bg-indigo-50",
                )}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium text-slate-900">{s.visitor_name}</span>
                  <ChatStatusBadge status={s.status} />
                </span>
                {s.waiting_for_human && s.waiting_since && (
                  <span className="mt-1 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800">
                    Waiting for a person · {formatDuration(secondsSince(s.waiting_since, now))}
                  </span>
                )}
                {s.last_message && <span className="mt-1 block truncate text-sm text-slate-600">{s.last_message}</span>}
                {s.assigned_agent && (
                  <span className="mt-1 block text-xs text-slate-500">With {s.assigned_agent.name}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
