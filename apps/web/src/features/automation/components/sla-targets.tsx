import { SLA_HOURS_MAX, type SlaTarget, type SlaTargetsAnswer, WEEKDAY_NAMES } from "@cove/contract/sla.ts";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useSaveSlaTargets, useSlaTargets } from "../api/automation.api.ts";

const PRIORITY_NAMES = { low: "Low", normal: "Normal", high: "High", urgent: "Urgent" } as const;

interface Row {
  priority: SlaTarget["priority"];
  first: string;
  resolution: string;
  business: boolean;
}

const toRow = (t: SlaTarget): Row => ({
  priority: t.priority,
  first: t.first_response_hours === null ? "" : String(t.first_response_hours),
  resolution: t.resolution_hours === null ? "" : String(t.resolution_hours),
  business: t.business_hours,
});
const hours = (text: string) => (text.trim() === "" ? null : Number(text));

/** Monday first, as a working week reads. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/**
 * SLA targets per priority: first response and resolution, in calendar or business hours (empty: no target), and the
 * organization's business hours. readOnly: an agent sees them; changing them is for admins.
 */
export function SlaTargets({ readOnly = false }: { readOnly?: boolean }) {
  const targets = useSlaTargets();
  if (targets.isPending) return null;
  if (targets.isError) return <Alert>Failed to load the SLA targets</Alert>;
  return <SlaTargetsForm initial={targets.data} readOnly={readOnly} />;
}

function SlaTargetsForm({ initial, readOnly }: { initial: SlaTargetsAnswer; readOnly: boolean }) {
  const save = useSaveSlaTargets();
  const [rows, setRows] = useState(() => initial.targets.map(toRow));
  const [days, setDays] = useState(initial.business_hours.days);
  const [opens, setOpens] = useState(initial.business_hours.opens);
  const [closes, setCloses] = useState(initial.business_hours.closes);
  const [error, setError] = useState<string>();
  const set = (i: number, change: Partial<Row>) =>
    setRows((r) => r.map((row, j) => (j === i ? { ...row, ...change } : row)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      await save.mutateAsync({
        targets: rows.map((r) => ({
          priority: r.priority,
          first_response_hours: hours(r.first),
          resolution_hours: hours(r.resolution),
          business_hours: r.business,
        })),
        business_hours: { days, opens, closes },
      });
      toast.success("SLA targets saved");
    } catch (err) {
      setError(errorText(err, "The SLA targets could not be saved."));
    }
  }

  return (
    <section aria-labelledby="sla-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="sla-heading" className="text-base font-semibold text-slate-900">
        SLA targets
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Hours to the first public reply and to the solve, per priority, in calendar hours or in your business hours
        below ({initial.timezone}, the time zone of Settings). Leave a field empty for no target.
      </p>
      <form onSubmit={submit} noValidate aria-label="SLA targets" className="mt-3 space-y-3">
        <fieldset disabled={readOnly} className="space-y-3">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Priority</th>
                <th className="py-1 pr-3 font-medium">First response (hours)</th>
                <th className="py-1 pr-3 font-medium">Resolution (hours)</th>
                <th className="py-1 font-medium">Business hours</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => {
                const name = PRIORITY_NAMES[row.priority];
                return (
                  <tr key={row.priority}>
                    <td className="py-1 pr-3 font-medium text-slate-900">{name}</td>
                    <td className="py-1 pr-3">
                      <input
                        type="number"
                        min={0}
                        max={SLA_HOURS_MAX}
                        step="any"
                        aria-label={`${name} first response hours`}
                        className={inputClasses}
                        value={row.first}
                        onChange={(e) => set(i, { first: e.target.value })}
                      />
                    </td>
                    <td className="py-1 pr-3">
                      <input
                        type="number"
                        min={0}
                        max={SLA_HOURS_MAX}
                        step="any"
                        aria-label={`${name} resolution hours`}
                        className={inputClasses}
                        value={row.resolution}
                        onChange={(e) => set(i, { resolution: e.target.value })}
                      />
                    </td>
                    <td className="py-1">
                      <input
                        type="checkbox"
                        aria-label={`${name} in business hours`}
                        className="size-4 rounded border-slate-300 text-indigo-600"
                        checked={row.business}
                        onChange={(e) => set(i, { business: e.target.checked })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Business hours</legend>
            <div className="flex flex-wrap gap-3">
              {WEEK.map((day) => (
                <label key={day} className="flex items-center gap-1.5 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300 text-indigo-600"
                    checked={days.includes(day)}
                    onChange={(e) =>
                      setDays(e.target.checked ? [...days, day].sort((a, b) => a - b) : days.filter((d) => d !== day))
                    }
                  />
                  {WEEKDAY_NAMES[day]}
                </label>
              ))}
            </div>
            <div className="flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm text-slate-700">
                Opens
                <input
                  type="time"
                  className={`${inputClasses} w-32`}
                  value={opens}
                  onChange={(e) => setOpens(e.target.value)}
                />
              </label>
              <label className="flex items-center gap-2 text-sm text-slate-700">
                Closes
                <input
                  type="time"
                  className={`${inputClasses} w-32`}
                  value={closes}
                  onChange={(e) => setCloses(e.target.value)}
                />
              </label>
            </div>
          </fieldset>
        </fieldset>
        {error && <Alert>{error}</Alert>}
        {!readOnly && (
          <div className="flex justify-end">
            <Button type="submit" variant="secondary" pending={save.isPending}>
              Save SLA targets
            </Button>
          </div>
        )}
      </form>
    </section>
  );
}
