import { REPORT_GROUPS, REPORT_RANGE_MAX_DAYS, type ReportGroup } from "@cove/contract/reports.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES, type TicketPriority, type TicketSource } from "@cove/contract/tickets.ts";
import { z } from "zod";
import { addDays, DEFAULT_PRESET, isDay, presetDays, RANGE_PRESETS, type RangePreset } from "./report-range.ts";

/**
 * What the Reports screen shows, as its address holds it (so a link reproduces the view): the range (a preset, or
 * custom with its two days), the grouping, and the filters. Defaults are left out of the address.
 */
export interface ReportView {
  range: RangePreset;
  /** Custom ranges only: the first and last day (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  group: ReportGroup;
  channel?: TicketSource;
  agent?: string;
  priority?: TicketPriority;
  tag?: string;
}

/** The query every report call sends (GET /reports, the section CSVs and the ticket CSV). */
export interface ReportParams {
  from: string;
  to: string;
  group: ReportGroup;
  channel?: TicketSource;
  agent?: string;
  priority?: TicketPriority;
  tag?: string;
}

const pick = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);

const agentId = z.uuid();

/**
 * The view from the address bar. A hand-edited or outdated link never breaks the screen: a value the API would refuse
 * is left out (that filter shows "All"), and a custom range with bad days falls back to the default range.
 */
export function readView(query: URLSearchParams): ReportView {
  let range = pick(RANGE_PRESETS, query.get("range")) ?? DEFAULT_PRESET;
  const from = query.get("from");
  const to = query.get("to");
  if (range === "custom" && !(isDay(from) && isDay(to) && customRangeError(from, to) === null)) range = DEFAULT_PRESET;
  const agent = query.get("agent");
  const tag = query.get("tag")?.trim().slice(0, 100);
  return {
    range,
    ...(range === "custom" && from && to ? { from, to } : {}),
    group: pick(REPORT_GROUPS, query.get("group")) ?? "day",
    channel: pick(TICKET_SOURCES, query.get("channel")),
    agent: agentId.safeParse(agent).success ? (agent ?? undefined) : undefined,
    priority: pick(TICKET_PRIORITIES, query.get("priority")),
    tag: tag ? tag : undefined,
  };
}

/** The address-bar form, in a fixed order and without defaults, so equal views have equal links. */
export function writeView(view: ReportView): URLSearchParams {
  const query = new URLSearchParams();
  if (view.range !== DEFAULT_PRESET) query.set("range", view.range);
  if (view.range === "custom" && view.from && view.to) {
    query.set("from", view.from);
    query.set("to", view.to);
  }
  if (view.group !== "day") query.set("group", view.group);
  if (view.channel) query.set("channel", view.channel);
  if (view.agent) query.set("agent", view.agent);
  if (view.priority) query.set("priority", view.priority);
  if (view.tag) query.set("tag", view.tag);
  return query;
}

/** The API's query for a view, with a preset's days counted from the organization's today. */
export function reportParams(view: ReportView, today: string): ReportParams {
  const days =
    view.range === "custom" && view.from && view.to
      ? { from: view.from, to: view.to }
      : presetDays(view.range === "custom" ? DEFAULT_PRESET : view.range, today);
  return {
    ...days,
    group: view.group,
    ...(view.channel ? { channel: view.channel } : {}),
    ...(view.agent ? { agent: view.agent } : {}),
    ...(view.priority ? { priority: view.priority } : {}),
    ...(view.tag ? { tag: view.tag } : {}),
  };
}

/** The query string of a report call (fixed order, so the same view is the same cached answer and the same URL). */
export function toSearch(params: ReportParams): string {
  const query = new URLSearchParams({ from: params.from, to: params.to, group: params.group });
  if (params.channel) query.set("channel", params.channel);
  if (params.agent) query.set("agent", params.agent);
  if (params.priority) query.set("priority", params.priority);
  if (params.tag) query.set("tag", params.tag);
  return query.toString();
}

/** Why a custom range cannot be shown, in the words the screen uses, or null when it can. */
export function customRangeError(from: string, to: string): string | null {
  if (!isDay(from) || !isDay(to)) return "Choose both days.";
  if (from > to) return "The first day must be on or before the last day.";
  if (addDays(from, REPORT_RANGE_MAX_DAYS - 1) < to) return `A report covers at most ${REPORT_RANGE_MAX_DAYS} days.`;
  return null;
}

/** How many filters (channel, agent, priority, tag) are in use. */
export function activeFilters(view: ReportView): number {
  return [view.channel, view.agent, view.priority, view.tag].filter(Boolean).length;
}
