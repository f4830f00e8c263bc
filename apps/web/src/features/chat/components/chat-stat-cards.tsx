import type { ChatStatsAnswer } from "@cove/contract/chat.ts";
import { FigureCards } from "../../../components/ui/figure-cards.tsx";
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
  return <FigureCards className="grid grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4" cards={cards} />;
}
