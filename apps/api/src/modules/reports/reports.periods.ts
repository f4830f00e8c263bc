import type { ReportGroup, ReportPeriod, TimeStats } from "@cove/contract/reports.ts";

/**
 * The calendar and arithmetic of a report (docs/reports.md): its periods as days (YYYY-MM-DD, calendar dates of the
 * organization's time zone, which the database works out), and the medians and percentiles of its times.
 */

const DAY = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = dayMs(from); d <= dayMs(to); d += DAY) days.push(dayText(d));
  return days;
}

/** The first day of the period a day is in: itself, its week's Monday, or its month's first (never before from). */
function periodStart(day: string, group: ReportGroup, from: string): string {
  let start = day;
  if (group === "week") {
    const ms = dayMs(day);
    start = dayText(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY);
  } else if (group === "month") {
    start = `${day.slice(0, 7)}-01`;
  }
  return start < from ? from : start;
}

/** The range's periods and which one each day of it belongs to (by its index). */
export function periodsOf(from: string, to: string, group: ReportGroup) {
  const periods: ReportPeriod[] = [];
  const indexOfDay = new Map<string, number>();
  for (const day of daysOf(from, to)) {
    const start = periodStart(day, group, from);
    const last = periods.at(-1);
    if (last?.start === start) last.end = day;
    else periods.push({ start, end: day });
    indexOfDay.set(day, periods.length - 1);
  }
  return { periods, indexOfDay };
}

/** To one decimal. */
export const round1 = (value: number) => Math.round(value * 10) / 10;

/** A percent to one decimal; null when there is nothing to divide by. */
export const percent = (part: number, whole: number) => (whole === 0 ? null : round1((part * 100) / whole));

/** The p-th quantile of sorted values, interpolated between the two nearest (as percentile_cont); null when none. */
export function quantile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const low = sorted[lo] ?? 0;
  return low + ((sorted[hi] ?? low) - low) * (at - lo);
}

/** Calendar and business minutes of a set of tickets as the report shows them. */
export function timeStats(minutes: number[], business: number[]): TimeStats {
  const cal = [...minutes].sort((a, b) => a - b);
  const bus = [...business].sort((a, b) => a - b);
  const r = (v: number | null) => (v === null ? null : round1(v));
  return {
    count: cal.length,
    median_minutes: r(quantile(cal, 0.5)),
    p90_minutes: r(quantile(cal, 0.9)),
    median_business_minutes: r(quantile(bus, 0.5)),
    p90_business_minutes: r(quantile(bus, 0.9)),
  };
}
