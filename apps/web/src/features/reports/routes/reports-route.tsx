import { useQueryClient } from "@tanstack/react-query";
import { ChartNoAxesColumn, Download } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { reportKeys } from "../../../lib/query-keys.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useToastsBelow } from "../../../lib/toasts-below.ts";
import { downloadTicketsCsv, useReport } from "../api/reports.queries.ts";
import { ReportFilters } from "../components/report-filters.tsx";
import { isEmptyReport } from "../components/report-format.ts";
import { activeFilters, readView, reportParams, writeView } from "../components/report-params.ts";
import { formatRange, todayIn } from "../components/report-range.ts";
import {
  AgentsSection,
  AssistantSection,
  BusiestHoursSection,
  SatisfactionSection,
  SlaSection,
  SpeedSection,
  TagsSection,
  VolumeSection,
} from "../components/report-sections.tsx";

/** Where the organization's time zone is kept once a report has said it, so the next visit counts days right at once. */
const zoneKey = [...reportKeys.all, "timezone"] as const;

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * /reports (issue 31): how fast and how well the team answers, for agents and admins, read-only. The view (range,
 * grouping, filters) lives in the address, so a link reproduces it; every section obeys it, and each downloads as
 * the CSV of exactly what its table view shows.
 */
export function ReportsRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readView(searchParams), [searchParams]);
  const queryClient = useQueryClient();
  // A preset's days are counted from the organization's today. Its time zone comes with the report: until the first
  // answer says it, the browser's zone stands in (and if that gave other days, the report is asked again at once).
  const [zone, setZone] = useState(() => queryClient.getQueryData<string>(zoneKey) ?? browserZone());
  const params = useMemo(() => reportParams(view, todayIn(zone)), [view, zone]);
  const report = useReport(params);
  const answerZone = report.data?.timezone;
  useEffect(() => {
    if (!answerZone) return;
    queryClient.setQueryData(zoneKey, answerZone);
    setZone(answerZone);
  }, [answerZone, queryClient]);
  const zoneSettled = !answerZone || answerZone === zone;

  const seenTags = useRef(new Set<string>());
  for (const t of report.data?.tags ?? []) seenTags.current.add(t.tag);

  const [downloading, setDownloading] = useState(false);
  // On a phone "Download tickets (CSV)" wraps below the heading: toasts keep clear of both.
  const header = useRef<HTMLElement>(null);
  useToastsBelow(header);
  async function downloadTickets() {
    setDownloading(true);
    try {
      await downloadTicketsCsv(params);
    } catch (error) {
      toastError(error, "The tickets CSV could not be downloaded");
    } finally {
      setDownloading(false);
    }
  }

  const data = zoneSettled ? report.data : undefined;
  const updating = report.isPlaceholderData || report.isFetching;

  return (
    <div className="space-y-6">
      <title>Reports · Cove</title>
      <header ref={header} className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Reports</h1>
          <p className="mt-1 text-sm text-slate-600">
            {formatRange(params.from, params.to)}
            {data ? ` · days and hours in ${data.timezone}` : ""}
          </p>
        </div>
        <Button variant="secondary" pending={downloading} onClick={() => void downloadTickets()}>
          {!downloading && <Download className="size-4" aria-hidden="true" />}
          Download tickets (CSV)
        </Button>
      </header>

      <ReportFilters
        view={view}
        shown={params}
        tags={[...seenTags.current]}
        onChange={(next) => setSearchParams(writeView(next))}
      />

      {report.isError && !report.isPlaceholderData ? (
        <LoadError title="Error loading reports" error={report.error} onRetry={() => void report.refetch()} />
      ) : !data ? (
        <Loading label="Loading reports" />
      ) : isEmptyReport(data) ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
          <ChartNoAxesColumn className="size-8 text-slate-400" aria-hidden="true" />
          <h2 className="font-semibold text-slate-900">Nothing to report for these days</h2>
          <p className="max-w-sm text-sm text-slate-600">
            {activeFilters(view) > 0
              ? "No tickets or chats match these filters in this range. Try a longer range or clear the filters."
              : "No tickets or chats in this range yet. Try a longer range."}
          </p>
        </div>
      ) : (
        <div
          aria-busy={updating || undefined}
          className={`grid gap-6 xl:grid-cols-2 ${report.isPlaceholderData ? "opacity-60 transition-opacity" : ""}`}
        >
          <div className="min-w-0 xl:col-span-2">
            <VolumeSection report={data} params={params} />
          </div>
          <SpeedSection report={data} params={params} />
          <SlaSection report={data} params={params} />
          <SatisfactionSection report={data} params={params} />
          <AssistantSection report={data} params={params} />
          {/* Nine columns (a name and an email among them) need the whole width to fit without scrolling sideways. */}
          <div className="min-w-0 xl:col-span-2">
            <AgentsSection report={data} params={params} />
          </div>
          <div className="min-w-0 xl:col-span-2">
            <TagsSection report={data} params={params} />
          </div>
          <div className="min-w-0 xl:col-span-2">
            <BusiestHoursSection report={data} params={params} />
          </div>
        </div>
      )}
    </div>
  );
}
