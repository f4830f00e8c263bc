import type { Viewer } from "@cove/contract/realtime.ts";

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? "")
    .join("") || "?";

/** Names a list of people the way a sentence does: "Priya", "Priya and Marco", "Priya, Marco and Lee". */
function names(list: string[]): string {
  if (list.length <= 1) return list[0] ?? "";
  return `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

/**
 * Collision detection: the other team members on this ticket now, and who of them is writing a reply, so two people
 * do not answer the same customer at once.
 */
export function TicketViewers({ viewers }: { viewers: Viewer[] }) {
  if (viewers.length === 0) return null;
  const typing = viewers.filter((v) => v.typing).map((v) => v.name.split(/\s+/)[0] || v.name);
  return (
    <div className="flex flex-wrap items-center gap-3" aria-live="polite">
      <ul aria-label="Also viewing" className="flex -space-x-2">
        {viewers.map((v) => (
          <li key={v.user_id} title={`${v.name} is viewing this ticket`}>
            <span className="flex size-8 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700 ring-2 ring-white">
              <span aria-hidden="true">{initials(v.name)}</span>
              <span className="sr-only">{v.name}</span>
            </span>
          </li>
        ))}
      </ul>
      {typing.length > 0 && (
        <p className="text-sm text-amber-700">
          {names(typing)} {typing.length === 1 ? "is" : "are"} replying…
        </p>
      )}
    </div>
  );
}
