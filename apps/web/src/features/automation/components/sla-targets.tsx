import { SLA_HOURS_MAX, type SlaTarget } from "@cove/contract/sla.ts";
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

/** SLA targets per priority: first response and resolution, in calendar or business hours (empty: no target). */
export function SlaTargets() {
  const targets = useSlaTargets();
  if (targets.isPending) return null;
  if (targets.isError) return <Alert>Failed to load the SLA targets</Alert>;
  return <SlaTargetsForm initial={targets.data.targets.map(toRow)} />;
}

function SlaTargetsForm({ initial }: { initial: Row[] }) {
  const save = useSaveSlaTargets();
  const [rows, setRows] = useState(initial);
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
        Hours to the first public reply and to the solve, per priority; business hours are Monday to Friday, 09:00 to
        17:00 in your time zone. Leave a field empty for no target.
      </p>
      <form onSubmit={submit} noValidate aria-label="SLA targets" className="mt-3 space-y-3">
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
        {error && <Alert>{error}</Alert>}
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" pending={save.isPending}>
            Save SLA targets
          </Button>
        </div>
      </form>
    </section>
  );
}
