import { SLA_HOURS_MAX, type SlaTarget, type SlaTargetsAnswer, WEEKDAY_NAMES } from "@cove/contract/sla.ts";
import { TICKET_PRIORITIES } from "@cove/contract/tickets.ts";
import type { UseFormRegisterReturn } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { PANEL, TitledSection } from "../../../components/ui/titled-section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useSaveSlaTargets, useSlaTargets } from "../api/automation.api.ts";

const PRIORITY_NAMES = { low: "Low", normal: "Normal", high: "High", urgent: "Urgent" } as const;

/**
 * The targets as typed (empty: no target). The server checks them with the contract's rules and says what is wrong
 * above the button: the table has no room for a message per cell.
 */
const slaForm = z.object({
  rows: z.array(
    z.object({
      priority: z.enum(TICKET_PRIORITIES),
      first: z.string(),
      resolution: z.string(),
      business: z.boolean(),
    }),
  ),
  days: z.array(z.number()),
  opens: z.string(),
  closes: z.string(),
});
type Row = z.infer<typeof slaForm>["rows"][number];

const toRow = (t: SlaTarget): Row => ({
  priority: t.priority,
  first: t.first_response_hours === null ? "" : String(t.first_response_hours),
  resolution: t.resolution_hours === null ? "" : String(t.resolution_hours),
  business: t.business_hours,
});
const hours = (text: string) => (text.trim() === "" ? null : Number(text));

/** Monday first, as a working week reads. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** A target's hours, in a cell of the table (named by its row and column). */
function HoursInput({ label, ...registered }: { label: string } & UseFormRegisterReturn) {
  return (
    <input
      type="number"
      min={0}
      max={SLA_HOURS_MAX}
      step="any"
      aria-label={label}
      className={inputClasses}
      {...registered}
    />
  );
}

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
  const {
    register,
    watch,
    setValue,
    setError,
    submit,
    formState: { errors },
  } = useContractForm(slaForm, {
    rows: initial.targets.map(toRow),
    days: initial.business_hours.days,
    opens: initial.business_hours.opens,
    closes: initial.business_hours.closes,
  });
  const days = watch("days");
  const error = errors.root?.message;

  const onSubmit = submit(
    [],
    async ({ rows, days, opens, closes }) => {
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
    },
    (err) => setError("root", { message: errorText(err, "The SLA targets could not be saved.") }),
  );

  return (
    <TitledSection
      titleId="sla-heading"
      title="SLA targets"
      className={PANEL}
      titleClassName="text-base font-semibold text-slate-900"
    >
      <p className="mt-1 text-sm text-slate-600">
        Hours to the first public reply and to the solve, per priority, in calendar hours or in your business hours
        below ({initial.timezone}, the time zone of Settings). Leave a field empty for no target.
      </p>
      <form onSubmit={onSubmit} noValidate aria-label="SLA targets" className="mt-3 space-y-3">
        <fieldset disabled={readOnly} className="space-y-3">
          <table className="w-full text-left text-sm">
            <TableHead
              className="text-xs text-slate-500"
              cellClassName="py-1 pr-3 font-medium"
              columns={[
                "Priority",
                "First response (hours)",
                "Resolution (hours)",
                { label: "Business hours", className: "py-1 font-medium" },
              ]}
            />
            <tbody>
              {initial.targets.map((row, i) => {
                const name = PRIORITY_NAMES[row.priority];
                return (
                  <tr key={row.priority}>
                    <td className="py-1 pr-3 font-medium text-slate-900">{name}</td>
                    <td className="py-1 pr-3">
                      <HoursInput label={`${name} first response hours`} {...register(`rows.${i}.first`)} />
                    </td>
                    <td className="py-1 pr-3">
                      <HoursInput label={`${name} resolution hours`} {...register(`rows.${i}.resolution`)} />
                    </td>
                    <td className="py-1">
                      <input
                        type="checkbox"
                        aria-label={`${name} in business hours`}
                        className="size-4 rounded border-slate-300 text-indigo-600"
                        {...register(`rows.${i}.business`)}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <fieldset id="business-hours" className="scroll-mt-20 space-y-2">
            <legend className="text-sm font-medium text-slate-900">Business hours</legend>
            <div className="flex flex-wrap gap-3">
              {WEEK.map((day) => (
                <label key={day} className="flex items-center gap-1.5 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300 text-indigo-600"
                    checked={days.includes(day)}
                    onChange={(e) =>
                      setValue(
                        "days",
                        e.target.checked ? [...days, day].sort((a, b) => a - b) : days.filter((d) => d !== day),
                      )
                    }
                  />
                  {WEEKDAY_NAMES[day]}
                </label>
              ))}
            </div>
            <div className="flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm text-slate-700">
                Opens
                <input type="time" className={`${inputClasses} w-32`} {...register("opens")} />
              </label>
              <label className="flex items-center gap-2 text-sm text-slate-700">
                Closes
                <input type="time" className={`${inputClasses} w-32`} {...register("closes")} />
              </label>
            </div>
            <p className="text-xs text-slate-500">
              A closing time before the opening time runs past midnight: 22:00 to 06:00 on Friday is Friday night until
              Saturday 06:00.
            </p>
          </fieldset>
        </fieldset>
        {error && <Alert>{error}</Alert>}
        {!readOnly && (
          <FormActions variant="secondary" pending={save.isPending}>
            Save SLA targets
          </FormActions>
        )}
      </form>
    </TitledSection>
  );
}
