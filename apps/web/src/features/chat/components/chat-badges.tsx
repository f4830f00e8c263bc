import type { ChatSessionStatus } from "@cove/contract/chat.ts";
import { clsx } from "clsx";

const statusTone: Record<ChatSessionStatus, string> = {
  active: "bg-emerald-100 text-emerald-800",
  closed: "bg-slate-100 text-slate-700",
  transferred: "bg-sky-100 text-sky-800",
};

export function ChatStatusBadge({ status }: { status: ChatSessionStatus }) {
  return (
    <span className={clsx("rounded-full px-2 py-0.5 text-xs font-medium capitalize", statusTone[status])}>
      {status}
    </span>
  );
}
