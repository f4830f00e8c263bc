import type { ReportSection } from "@cove/contract/reports.ts";
import { Download, Table } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { downloadSectionCsv } from "../api/reports.queries.ts";
import type { ReportParams } from "./report-params.ts";

interface ReportCardProps {
  /** The section: its heading's id and its CSV (GET /reports/{section}.csv). */
  section: ReportSection;
  title: string;
  /** One line under the title: what the section shows. */
  intro: string;
  /** Plain-words definitions of the section's figures (issue 31, item 3; docs/reports.md). */
  howCounted: ReactNode;
  /** The query the screen shows, which the CSV is asked with. */
  params: ReportParams;
  /** True when the range holds nothing for this section: the card says so instead of drawing empty axes. */
  empty?: boolean;
  /** The headline figures above the chart. */
  figures?: ReactNode;
  /** The chart, and the same numbers as a table; the card shows one of them. */
  chart: ReactNode;
  table: ReactNode;
  /** What follows the chart whichever view is on (the breached tickets, the unanswered questions...). */
  more?: ReactNode;
}

/** What a section, one of its charts or its table view says when the range holds nothing for it, instead of empty axes. */
export function NoData({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
      {children}
    </p>
  );
}

/**
 * One section of the Reports screen: title, headline figures, a chart with a table view of the same numbers, the
 * section's CSV exactly as the table shows it, and how its figures are counted.
 */
export function ReportCard({
  section,
  title,
  intro,
  howCounted,
  params,
  empty = false,
  figures,
  chart,
  table,
  more,
}: ReportCardProps) {
  const [asTable, setAsTable] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const headingId = `report-${section}`;

  async function download() {
    setDownloading(true);
    try {
      await downloadSectionCsv(section, params);
    } catch (error) {
      toastError(error, `The ${title} CSV could not be downloaded`);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="@container min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">{intro}</p>
        </div>
        {!empty && (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              aria-pressed={asTable}
              aria-label={`Table view of ${title}`}
              // Pressed reads as on: the toggle's own state, not a new look for the shared button.
              className="aria-pressed:border-indigo-300 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-700"
              onClick={() => setAsTable((t) => !t)}
            >
              <Table className="size-4" aria-hidden="true" />
              Table view
            </Button>
            <Button
              variant="secondary"
              size="sm"
              pending={downloading}
              aria-label={`Download CSV of ${title}`}
              onClick={() => void download()}
            >
              {!downloading && <Download className="size-4" aria-hidden="true" />}
              Download CSV
            </Button>
          </div>
        )}
      </div>

      <div className="mt-4 space-y-4">
        {empty ? (
          <NoData>Nothing to count here in this range. Try a longer range or fewer filters.</NoData>
        ) : (
          <>
            {figures}
            {asTable ? table : chart}
            {more}
          </>
        )}
      </div>

      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700 hover:text-indigo-600">
          How is this counted?
        </summary>
        <div className="mt-2 space-y-1.5 text-slate-600">{howCounted}</div>
      </details>
    </section>
  );
}
