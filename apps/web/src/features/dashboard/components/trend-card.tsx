import type { OrganizationStats } from "@cove/contract/tickets.ts";

type Trend = OrganizationStats["ticketTrends"];

const DAYS = 30;

function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The API lists only days that had tickets; the chart needs all 30, ending today (or on the last day the API reports,
 * when the organization's time zone is already a day ahead of this browser).
 */
export function dailySeries(trend: Trend, now: Date = new Date()): { date: string; count: number }[] {
  const byDay = new Map(trend.map((d) => [d.date, d.tickets_created]));
  const latest = trend.reduce((max, d) => (d.date > max ? d.date : max), dayKey(now));
  const [y, m, d] = latest.split("-").map(Number);
  const end = new Date(y ?? now.getFullYear(), (m ?? now.getMonth() + 1) - 1, d ?? now.getDate());
  return Array.from({ length: DAYS }, (_, i) => {
    const date = dayKey(new Date(end.getFullYear(), end.getMonth(), end.getDate() - (DAYS - 1 - i)));
    return { date, count: byDay.get(date) ?? 0 };
  });
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });

/** "Nov 3" for "2026-11-03" (a calendar day, not an instant: no time zone may move it). */
export function formatDay(key: string): string {
  const [y, m, d] = key.split("-").map(Number);
  return dayLabel.format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}

/** A round top for the axis: 1, 2, 5, 10, 20, 50... at or above the busiest day. */
export function axisTop(max: number): number {
  for (let step = 1; ; step *= 10) {
    for (const m of [1, 2, 5]) if (m * step >= max) return m * step;
  }
}

/**
 * Spec: shown only when there is trend data; says how many days have data and how many tickets were created. The chart
 * has its scale (0 and a round top), dates under it, and each day's figure on hover and for screen readers.
 */
export function TrendCard({ trend }: { trend: Trend }) {
  if (trend.length === 0) return null;
  const series = dailySeries(trend);
  const total = trend.reduce((sum, d) => sum + d.tickets_created, 0);
  const top = axisTop(Math.max(1, ...series.map((d) => d.count)));
  const middle = series[Math.floor(series.length / 2)];

  return (
    <section aria-labelledby="trend-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="trend-heading" className="font-semibold text-slate-900">
        30-Day Trend
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {plural(trend.length, "day", "days")} of data · {plural(total, "ticket", "tickets")} created
      </p>
      <div className="mt-3 flex gap-2">
        <div
          className="flex h-24 flex-col justify-between text-right text-xs text-slate-500 tabular-nums"
          aria-hidden="true"
        >
          <span className="-mt-1.5">{top}</span>
          <span className="-mb-1.5">0</span>
        </div>
        <div className="min-w-0 flex-1">
          <ol
            aria-label="Tickets created per day"
            className="flex h-24 items-end gap-px border-b border-l border-slate-300 pl-px"
          >
            {series.map((day) => (
              <li key={day.date} className="group relative flex h-full min-w-0 flex-1 items-end">
                <span
                  aria-hidden="true"
                  className={`block w-full rounded-t-sm ${day.count === 0 ? "bg-transparent" : "bg-indigo-500 group-hover:bg-indigo-700"}`}
                  style={{ height: `${(day.count / top) * 100}%` }}
                />
                <span className="sr-only">{`${formatDay(day.date)}: ${plural(day.count, "ticket", "tickets")}`}</span>
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute bottom-full left-1/2 z-10 mb-1 hidden -translate-x-1/2 rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow group-hover:block"
                >
                  {`${formatDay(day.date)}: ${plural(day.count, "ticket", "tickets")}`}
                </span>
              </li>
            ))}
          </ol>
          <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
            <span>{formatDay(series[0]?.date ?? "")}</span>
            <span>{formatDay(middle?.date ?? "")}</span>
            <span>{formatDay(series.at(-1)?.date ?? "")}</span>
          </div>
        </div>
      </div>
    </section>
  );
}
