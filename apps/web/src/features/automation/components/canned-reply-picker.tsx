import { fillPlaceholders } from "@cove/contract/canned-replies.ts";
import { useId } from "react";
import { useCannedReplies } from "../api/automation.api.ts";

/**
 * "Insert canned reply" in the reply box: the chosen reply, its placeholders filled from the ticket (values, keyed
 * like "ticket.requester_name"), goes to onInsert. Nothing shows while the organization has none.
 */
export function CannedReplyPicker({
  values,
  onInsert,
}: {
  values: Record<string, string>;
  onInsert: (text: string) => void;
}) {
  const id = useId();
  const canned = useCannedReplies();
  const list = canned.data?.canned_replies ?? [];
  if (list.length === 0) return null;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-700">
        Insert canned reply
      </label>
      <select
        id={id}
        value=""
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
        onChange={(e) => {
          const chosen = list.find((c) => c.id === e.target.value);
          if (chosen) onInsert(fillPlaceholders(chosen.body, values));
        }}
      >
        <option value="">Choose…</option>
        {list.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title}
          </option>
        ))}
      </select>
    </div>
  );
}
