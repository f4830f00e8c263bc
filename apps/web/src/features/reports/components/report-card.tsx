import { ChartColumn, Download, Table } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Loading, LoadError } from "../../../components/ui/load-states.tsx";

interface ReportCardProps {
  /** The section's key: its heading's id and its CSV's name. */
  id: string;
  title: string;
  /** One line under the title: what the section shows. */
  intro: string;
  /** Plain-words definitions of the section's figures (issue 31, item 3; docs/reports.md). */
  howCounted: ReactNode;
  /** The section's answer, as its query holds it. */
  state: { isPending: boolean; error: Error | null; refetch: () => unknown };
  /** True when the range holds nothing to count: the card says so instead of drawing empty axes. */
  empty?: boolean;
  /** The headline figures above the chart, when the section has some. */
  figures?: ReactNode;
  /** The chart, and the same numbers as a table; the card shows one of them. Omitted when a table is all there is. */
  chart?: ReactNode;
  table: ReactNode;
  onDownload: () => Promise<void>;
  downloading: boolean;
}

/**
 * One section of the Reports screen: title, headline figures, a chart with a table view of the same numbers, how the
 * figures are counted, and the section's CSV exactly as shown.
 */
export function ReportCard({
  id,
  title,
  intro,
  howCounted,
  state,
  empty = false,
  figures,
  chart,
  table,
  onDownload,
  downloading,
}: ReportCardProps) {
  const [asTable, setAsTable] = useState(false);
  const headingId = `report-${id}`;
  const ready = !state.isPending && !state.error;

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={state.isPending || undefined}
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">{intro}</p>
        </div>
        {ready && !empty && (
          <div className="flex flex-wrap gap-2">
            {chart && (
              <Button variant="secondary" size="sm" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
                {asTable ? (
                  <ChartColumn className="size-4" aria-hidden="true" />
                ) : (
                  <Table className="size-4" aria-hidden="true" />
                )}
                {asTable ? "Chart view" : "Table view"}
                <span className="sr-only"> of {title}</span>
              </Button>
            )}
            <Button variant="secondary" size="sm" pending={downloading} onClick={() => void onDownload()}>
              {!downloading && <Download className="size-4" aria-hidden="true" />}
              Download CSV<span className="sr-only"> of {title}</span>
            </Button>
          </div>
        )}
      </div>

      <div className="mt-4">
        {state.isPending ? (
          <Loading label={`Loading ${title}`} />
        ) : state.error ? (
          <LoadError title={`${title} could not be loaded`} error={state.error} onRetry={() => state.refetch()} />
        ) : empty ? (
          <p className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
            Nothing to count in this range. Try a longer range or fewer filters.
          </p>
        ) : (
          <div className="space-y-4">
            {figures}
            {chart && !asTable ? chart : table}
          </div>
        )}
      </div>

      <details className="group mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-600 hover:text-indigo-500">
          How is this counted?
        </summary>
        <div className="mt-2 space-y-1.5 text-slate-600">{howCounted}</div>
      </details>
    </section>
  );
}
