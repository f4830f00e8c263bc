import type { ChatStatsAnswer } from "@cove/contract/chat.ts";
import { formatDuration } from "./chat-format.ts";

/** Active Chats, Closed Today, Avg Response (the real average to a person's first reply), Total. */
export function ChatStatCards({ stats }: { stats: ChatStatsAnswer | undefined }) {
  const avg = stats?.avg_response_seconds;
  const cards = [
    { label: "Active Chats", value: String(stats?.active_chats ?? 0) },
    { label: "Closed Today", value: String(stats?.closed_today ?? 0) },
    { label: "Avg Response", value: avg === null || avg === undefined ? "—" : formatDuration(avg) },
    { label: "Total Sessions", value: String(stats?.total_sessions ?? 0) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4">
      {cards.map((c) => (
        <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
          <dt className="text-xs font-medium text-slate-500 sm:text-sm">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900">{c.value}</dd>
        </div>
      ))}
    </dl>
  );
}
