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

/** Spec: shown only when there is trend data; says how many days have data and how many tickets were created. */
export function TrendCard({ trend }: { trend: Trend }) {
  if (trend.length === 0) return null;
  const series = dailySeries(trend);
  const total = trend.reduce((sum, d) => sum + d.tickets_created, 0);
  const max = Math.max(1, ...series.map((d) => d.count));
  const width = 300;
  const height = 64;
  const slot = width / series.length;

  return (
    <section aria-labelledby="trend-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="trend-heading" className="font-semibold text-slate-900">
        30-Day Trend
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {plural(trend.length, "day", "days")} of data · {plural(total, "ticket", "tickets")} created
      </p>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Tickets created per day over the last 30 days, ${total} in all`}
        className="mt-3 h-16 w-full"
        preserveAspectRatio="none"
      >
        {series.map((day, i) => {
          const h = day.count === 0 ? 1 : Math.max(3, (day.count / max) * (height - 2));
          return (
            <rect
              key={day.date}
              x={i * slot + 1}
              y={height - h}
              width={Math.max(1, slot - 2)}
              height={h}
              rx={1}
              className={day.count === 0 ? "fill-slate-200" : "fill-indigo-500"}
            >
              <title>{`${day.date}: ${day.count}`}</title>
            </rect>
          );
        })}
      </svg>
    </section>
  );
}
