import { REPORT_GROUPS } from "@cove/contract/reports.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES } from "@cove/contract/tickets.ts";
import { X } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { PRIORITY_LABELS } from "../../tickets/index.ts";
import { useTeamForFilter } from "../api/reports.queries.ts";
import { CHANNEL_LABELS, GROUP_LABELS } from "./report-format.ts";
import { activeFilters, customRangeError, type ReportView } from "./report-params.ts";
import { RANGE_LABELS, RANGE_PRESETS, type RangePreset } from "./report-range.ts";

const rangeOptions: SelectOption[] = RANGE_PRESETS.map((r) => ({ value: r, label: RANGE_LABELS[r] }));
const groupOptions: SelectOption[] = REPORT_GROUPS.map((g) => ({ value: g, label: GROUP_LABELS[g] }));
const channelOptions: SelectOption[] = [
  { value: "", label: "All channels" },
  ...TICKET_SOURCES.map((s) => ({ value: s, label: CHANNEL_LABELS[s] })),
];
const priorityOptions: SelectOption[] = [
  { value: "", label: "All priorities" },
  ...TICKET_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
];

interface ReportFiltersProps {
  view: ReportView;
  /** The days the screen shows now (a preset's, counted in the organization's time zone): a custom range starts there. */
  shown: { from: string; to: string };
  /** Tags seen in the reports so far, for the tag filter. */
  tags: readonly string[];
  onChange: (next: ReportView) => void;
}

/**
 * Range, grouping and the four filters. Every change goes to the address bar at once (the screen follows it), except a
 * custom range, which waits until both days make a range the API takes.
 */
export function ReportFilters({ view, shown, tags, onChange }: ReportFiltersProps) {
  const team = useTeamForFilter();
  const agentOptions: SelectOption[] = [
    { value: "", label: "All agents" },
    ...(team.data ?? []).map((m) => ({ value: m.id, label: m.active ? m.name : `${m.name} (deactivated)` })),
  ];
  // A link may name a member this list does not hold: keep the filter visible rather than silently showing "All".
  if (view.agent && !agentOptions.some((o) => o.value === view.agent)) {
    agentOptions.push({ value: view.agent, label: "Other agent" });
  }
  const tagOptions: SelectOption[] = [
    { value: "", label: "All tags" },
    ...[...new Set([...tags, ...(view.tag ? [view.tag] : [])])].sort().map((t) => ({ value: t, label: t })),
  ];

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
        <SelectField
          label="Date range"
          options={rangeOptions}
          value={view.range}
          onChange={(e) => {
            const range = RANGE_PRESETS.find((r) => r === e.target.value) ?? "last_30_days";
            onChange(withRange(view, range, shown));
          }}
        />
        <SelectField
          label="Group by"
          options={groupOptions}
          value={view.group}
          onChange={(e) => onChange({ ...view, group: REPORT_GROUPS.find((g) => g === e.target.value) ?? "day" })}
        />
        <SelectField
          label="Channel"
          options={channelOptions}
          value={view.channel ?? ""}
          onChange={(e) => onChange({ ...view, channel: TICKET_SOURCES.find((s) => s === e.target.value) })}
        />
        <SelectField
          label="Agent"
          options={agentOptions}
          value={view.agent ?? ""}
          onChange={(e) => onChange({ ...view, agent: e.target.value || undefined })}
        />
        <SelectField
          label="Priority"
          options={priorityOptions}
          value={view.priority ?? ""}
          onChange={(e) => onChange({ ...view, priority: TICKET_PRIORITIES.find((p) => p === e.target.value) })}
        />
        <SelectField
          label="Tag"
          options={tagOptions}
          value={view.tag ?? ""}
          onChange={(e) => onChange({ ...view, tag: e.target.value || undefined })}
        />
      </div>
      {(view.range === "custom" || activeFilters(view) > 0) && (
        <div className="flex flex-wrap items-end justify-between gap-3">
          {view.range === "custom" ? <CustomRange view={view} onChange={onChange} /> : <span />}
          {activeFilters(view) > 0 && (
            <Button
              variant="ghost"
              onClick={() =>
                onChange({ ...view, channel: undefined, agent: undefined, priority: undefined, tag: undefined })
              }
            >
              <X className="size-4" aria-hidden="true" />
              Clear filters
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** Choosing Custom starts from the days on screen, so the two date inputs are never empty. */
function withRange(view: ReportView, range: RangePreset, shown: { from: string; to: string }): ReportView {
  if (range !== "custom") return { ...view, range, from: undefined, to: undefined };
  return { ...view, range, from: view.from ?? shown.from, to: view.to ?? shown.to };
}

/** Two date inputs; the range changes once both days make one the API takes, else the reason shows under them. */
function CustomRange({ view, onChange }: { view: ReportView; onChange: (next: ReportView) => void }) {
  const [from, setFrom] = useState(view.from ?? "");
  const [to, setTo] = useState(view.to ?? "");
  // The address changed from outside (back button, a link): the inputs follow it.
  useEffect(() => {
    setFrom(view.from ?? "");
    setTo(view.to ?? "");
  }, [view.from, view.to]);
  const error = customRangeError(from, to);

  function change(nextFrom: string, nextTo: string) {
    setFrom(nextFrom);
    setTo(nextTo);
    if (customRangeError(nextFrom, nextTo) === null) onChange({ ...view, range: "custom", from: nextFrom, to: nextTo });
  }

  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">Custom range</legend>
      <div className="grid grid-cols-2 gap-3 sm:w-96">
        <TextField label="From" type="date" value={from} onChange={(e) => change(e.target.value, to)} required />
        <TextField label="To" type="date" value={to} onChange={(e) => change(from, e.target.value)} required />
      </div>
      {error && (
        <p className="mt-1.5 text-sm text-red-600" role="status">
          {error}
        </p>
      )}
    </fieldset>
  );
}
