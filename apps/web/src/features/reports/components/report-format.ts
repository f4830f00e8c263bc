import type { ReportAnswer, ReportGroup, ReportPeriod } from "@cove/contract/reports.ts";
import type { TicketSource } from "@cove/contract/tickets.ts";

/** The names for the channels (issue 31: email, chat, portal, web form, API). */
export const CHANNEL_LABELS: Record<TicketSource, string> = {
  email: "Email",
  chat: "Chat",
  portal: "Portal",
  web: "Web form",
  api: "API",
};

export const GROUP_LABELS: Record<ReportGroup, string> = { day: "Day", week: "Week", month: "Month" };

/** Weekday names in the contract's order (0 is Sunday). */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const count = new Intl.NumberFormat("en-US");

export const formatCount = (n: number): string => count.format(n);

/** A share the API gives in percent ("92.5%"), or a dash when nothing was counted. */
export const formatPercent = (share: number | null): string => (share === null ? "—" : `${share}%`);

/** A duration given in minutes, in the unit a person reads it in: "42 min", "3.5 h", "2.1 days". */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return "—";
  if (minutes < 60) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${(minutes / 60).toFixed(1)} h`;
  return `${(minutes / 60 / 24).toFixed(1)} days`;
}

/** Minutes as hours for a chart's scale (one decimal), keeping "nothing counted" as a gap. */
export const toHours = (minutes: number | null): number | null =>
  minutes === null ? null : Math.round((minutes / 60) * 10) / 10;

const UTC = "UTC";
const dayMonth = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: UTC });
const monthYear = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: UTC });

const asDate = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
};

/** A period's name on a chart's axis: "Nov 3" (a day, or the week starting then), "Nov 2026" (a month). */
export function periodLabel(period: ReportPeriod | string, group: ReportGroup): string {
  const start = typeof period === "string" ? period : period.start;
  return group === "month" ? monthYear.format(asDate(start)) : dayMonth.format(asDate(start));
}

/** "per day", "per week", "per month". */
export const perGroup = (group: ReportGroup): string => `per ${group}`;

/** An instant, read in the organization's time zone: "Nov 3, 2026, 4:05 PM". */
export function formatInstant(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: UTC }).format(date);
  }
}

/** True when the range holds nothing at all to count: no tickets, no chats, no ratings. */
export function isEmptyReport(report: ReportAnswer): boolean {
  const { volume, assistant, satisfaction, busiest_hours } = report;
  return (
    volume.totals.created.total === 0 &&
    volume.totals.solved.total === 0 &&
    volume.rows.every((r) => r.backlog === 0) &&
    assistant.chats === 0 &&
    satisfaction.overall.sent === 0 &&
    satisfaction.overall.good + satisfaction.overall.bad === 0 &&
    [...busiest_hours.tickets, ...busiest_hours.chats].every((hours) => hours.every((n) => n === 0))
  );
}
