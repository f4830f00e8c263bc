import type { CsatScore } from "@cove/contract/csat.ts";
import { Smile } from "lucide-react";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { useCsatStats } from "../api/csat.queries.ts";

const percent = (score: number | null) => (score === null ? "—" : `${score}%`);
const answers = (s: CsatScore) => `${s.good} good · ${s.bad} bad`;

function Split({ label, score }: { label: string; score: CsatScore }) {
  return (
    <div className="rounded-md bg-slate-50 p-3">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <p className="mt-1 text-lg font-semibold text-slate-900">{percent(score.score)}</p>
      <p className="text-xs text-slate-500">{answers(score)}</p>
    </div>
  );
}

/** Customer satisfaction over the last 30 days: overall, by who resolved (AI or people), and per agent. */
export function CsatCard() {
  const stats = useCsatStats();
  return (
    <section aria-labelledby="csat-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id="csat-heading" className="font-semibold text-slate-900">
          Customer Satisfaction
        </h2>
        <Smile className="size-5 text-indigo-500" aria-hidden="true" />
      </div>
      {stats.isPending ? (
        <Spinner className="mt-3 size-5 text-indigo-600" label="Loading satisfaction" />
      ) : stats.isError ? (
        <p className="mt-2 text-sm text-slate-600">The satisfaction figures could not be loaded.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Last {stats.data.period_days} days · {stats.data.overall.good + stats.data.overall.bad} of{" "}
            {stats.data.surveys_sent} surveys answered
          </p>
          <p className="mt-3 text-3xl font-semibold tracking-tight text-slate-900" data-testid="csat-score">
            {stats.data.overall.score === null ? (
              <span className="text-base font-medium text-slate-500">No answers yet</span>
            ) : (
              <>
                {percent(stats.data.overall.score)}
                <span className="ml-2 text-sm font-normal text-slate-500">good</span>
              </>
            )}
          </p>
          <div className="mt-3 grid grid-cols-2 gap-2">
            <Split label="Resolved by people" score={stats.data.people} />
            {/* Live chats the assistant resolved alone, as their visitors answered How did we do? */}
            <Split label="Resolved by AI" score={stats.data.ai} />
          </div>
          {stats.data.agents.length > 0 && (
            <table className="mt-3 w-full text-sm">
              <caption className="sr-only">Satisfaction per agent</caption>
              <TableHead
                className="text-left text-xs text-slate-500"
                cellClassName="py-1 text-right font-medium"
                columns={[{ label: "Agent", className: "py-1 font-medium" }, "Good", "Bad", "Score"]}
              />
              <tbody className="divide-y divide-slate-100">
                {stats.data.agents.map((a) => (
                  <tr key={a.agent_id ?? "none"}>
                    <td className="max-w-0 truncate py-1.5 text-slate-800">
                      {a.agent_id ? `${a.first_name} ${a.last_name}`.trim() : "No agent"}
                    </td>
                    <td className="py-1.5 text-right text-slate-700">{a.good}</td>
                    <td className="py-1.5 text-right text-slate-700">{a.bad}</td>
                    <td className="py-1.5 text-right font-medium text-slate-900">{percent(a.score)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
