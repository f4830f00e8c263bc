import { Link } from "react-router";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { useRuleRuns } from "../api/automation.api.ts";
import { EVENT_LABELS } from "./rule-format.ts";

const when = (iso: string) => new Date(iso).toLocaleString();

/** A rule's newest runs: the ticket and event, whether its conditions held, what it did, or why it failed. */
export function RuleRuns({ ruleId }: { ruleId: string }) {
  const runs = useRuleRuns(ruleId);
  if (runs.isPending) {
    return (
      <div className="mt-3 flex justify-center py-4 text-indigo-600">
        <Spinner className="size-5" label="Loading the run log" />
      </div>
    );
  }
  if (runs.isError)
    return <p className="mt-3 text-sm text-red-700">Failed to load the run log: {runs.error.message}</p>;
  const list = runs.data.runs;
  if (list.length === 0) return <p className="mt-3 text-sm text-slate-600">This rule has not run yet.</p>;
  return (
    <table className="mt-3 w-full text-left text-sm" aria-label="Run log">
      <TableHead
        className="text-xs text-slate-500"
        cellClassName="py-1 pr-3 font-medium"
        columns={["When", "Ticket", "Event", { label: "Outcome", className: "py-1 font-medium" }]}
      />
      <tbody className="divide-y divide-slate-100">
        {list.map((run) => (
          <tr key={run.id}>
            <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">{when(run.created_at)}</td>
            <td className="py-1.5 pr-3">
              {run.ticket_id && run.ticket_number !== null ? (
                <Link to={`/tickets/${run.ticket_id}`} className="text-indigo-700 hover:underline">
                  #{run.ticket_number}
                </Link>
              ) : (
                "deleted"
              )}
            </td>
            <td className="py-1.5 pr-3 text-slate-600">
              {EVENT_LABELS[run.event as keyof typeof EVENT_LABELS] ?? run.event}
            </td>
            <td className="py-1.5">
              {run.stopped ? (
                <span className="text-amber-700">{run.error}</span>
              ) : run.error ? (
                <span className="text-red-700">Failed: {run.error}</span>
              ) : run.matched ? (
                <span className="text-slate-900">{run.actions_done.join("; ") || "Nothing to change"}</span>
              ) : (
                <span className="text-slate-500">Conditions not met</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
