import type { AiStatsAnswer } from "@cove/contract/ai.ts";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { CARD, TitledSection } from "../../../components/ui/titled-section.tsx";
import { confidencePercent } from "./assistant-reply.tsx";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The measured resolution rate: customers' questions the assistant answered without handing off, last 30 days. */
export function ResolutionCard({ stats, error }: { stats: AiStatsAnswer | undefined; error: Error | null }) {
  return (
    <TitledSection
      titleId="resolution-title"
      title="Resolution rate"
      className={CARD}
      titleClassName="text-sm font-semibold text-slate-900"
    >
      <p className="text-xs text-slate-500">Last {stats?.days ?? 30} days, measured from every answer</p>
      {error && <p className="mt-3 text-sm text-red-700">The figures could not be loaded: {error.message}</p>}
      {!stats && !error && (
        <div className="mt-4 text-indigo-600">
          <Spinner label="Loading the resolution rate" />
        </div>
      )}
      {stats && (
        <>
          <p className="mt-3 text-4xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {stats.resolution_rate === null ? "—" : `${Math.round(stats.resolution_rate * 100)}%`}
          </p>
          {stats.answers === 0 ? (
            <p className="mt-2 text-sm text-slate-600">
              No customer questions in the last {stats.days} days yet. Once customers chat, the share answered without a
              person shows here.
            </p>
          ) : (
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-slate-500">Resolved by the assistant</dt>
                <dd className="font-medium text-slate-900">
                  {stats.resolved.toLocaleString("en-US")} of {plural(stats.answers, "question", "questions")}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Handed off to your team</dt>
                <dd className="font-medium text-slate-900">{stats.handed_off.toLocaleString("en-US")}</dd>
              </div>
              {stats.rated_helpful + stats.rated_unhelpful > 0 && (
                <div>
                  <dt className="text-slate-500">Rated helpful by customers</dt>
                  <dd className="font-medium text-slate-900">
                    {stats.rated_helpful.toLocaleString("en-US")} of{" "}
                    {plural(stats.rated_helpful + stats.rated_unhelpful, "rating", "ratings")}
                  </dd>
                </div>
              )}
              {stats.average_confidence !== null && (
                <div>
                  <dt className="text-slate-500">Average confidence</dt>
                  <dd className="font-medium text-slate-900">{confidencePercent(stats.average_confidence)}</dd>
                </div>
              )}
            </dl>
          )}
          <p className="mt-3 text-xs text-slate-500">
            Test console questions are not counted ({plural(stats.console_answers, "question", "questions")} in the same
            period).
          </p>
        </>
      )}
    </TitledSection>
  );
}
