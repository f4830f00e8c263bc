import { applyThresholdBody } from "@cove/contract/ai.ts";
import { useId } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { FieldShell, inputClasses } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useApplyThreshold, useThresholdProposal } from "../api/ai.api.ts";

export const APPLY_FAILED = "The threshold could not be applied";
const TARGETS = [0.05, 0.1, 0.15, 0.2, 0.3];
const form = z.object({ target: applyThresholdBody.shape.target });
const pct = (share: number) => `${Math.round(share * 100)}%`;

type Proposal = NonNullable<ReturnType<typeof useThresholdProposal>["data"]>;

/**
 * What the current threshold does on the labelled questions, in plain words: a kind of question with none labelled is
 * left out rather than shown as a blank or a meaningless 0%, and with nothing labelled at all it says so.
 */
function currentEffect(p: Proposal): string {
  const { answerable, uncovered, wrong } = p.labelled;
  if (answerable + uncovered + wrong === 0) {
    return "Nothing to measure a threshold against yet. A question is labelled when a customer gives its answer a thumbs up, and when your team attaches it to an article, accepts it as an article's example question, marks its answer wrong or says no article covers it.";
  }
  const { answerable_handed_off: a, uncovered_handed_off: u, wrong_handed_off: w } = p.at_current;
  const hasA = answerable > 0;
  const hasU = uncovered > 0 && u !== null;
  const kinds = [
    hasA && hasU ? `${pct(a)} of answerable and ${pct(u)} of uncovered questions handed off` : null,
    hasA && !hasU ? `${pct(a)} of answerable questions handed off` : null,
    !hasA && hasU ? `${pct(u)} of uncovered questions handed off` : null,
    w !== null ? `${pct(w)} of those answered wrongly` : null,
  ].filter((part) => part !== null);
  return (
    `From ${answerable} answerable and ${uncovered} uncovered questions of your customers` +
    (wrong > 0 ? `, and ${wrong} answers your team marked wrong` : "") +
    `. Now, at ${p.current.toFixed(2)}: ${kinds.join(", and ")}.`
  );
}

/**
 * What each threshold would have done on the labelled questions, for an admin who wants to see the trade-off rather
 * than trust the proposal: the current and proposed thresholds are named in their rows.
 */
function ThresholdCurve({ p }: { p: Proposal }) {
  const { answerable, uncovered, wrong } = p.labelled;
  if (p.curve.length === 0 || answerable + uncovered + wrong === 0) return null;
  const columns = [
    { label: "Hand off below", className: "py-1 font-medium" },
    ...(answerable > 0 ? ["Answerable handed off"] : []),
    ...(uncovered > 0 ? ["Uncovered handed off"] : []),
    ...(wrong > 0 ? ["Wrong answers handed off"] : []),
  ];
  const cell = "py-1.5 text-right text-slate-700";
  const near = (a: number, b: number | null) => b !== null && Math.abs(a - b) < 0.005;
  // The current and proposed thresholds get rows of their own where they fall between the curve's steps.
  const points = [...p.curve];
  for (const own of [p.at_current, p.at_proposed]) {
    if (own && !points.some((point) => near(point.threshold, own.threshold))) points.push(own);
  }
  points.sort((a, b) => a.threshold - b.threshold);
  return (
    <details className="text-xs text-slate-600">
      <summary className="cursor-pointer text-indigo-700">Every threshold on your past questions</summary>
      <table className="mt-2 w-full">
        <caption className="sr-only">What each threshold hands off of your labelled questions</caption>
        <TableHead className="text-left text-slate-500" cellClassName="py-1 text-right font-medium" columns={columns} />
        <tbody className="divide-y divide-slate-100">
          {points.map((point) => {
            const marks = [
              near(point.threshold, p.current) ? "now" : null,
              near(point.threshold, p.proposed) ? "proposed" : null,
            ].filter((m) => m !== null);
            return (
              <tr key={point.threshold}>
                <td className="py-1.5 text-slate-800">
                  {point.threshold.toFixed(2)}
                  {marks.length > 0 && <span className="text-slate-500"> ({marks.join(", ")})</span>}
                </td>
                {answerable > 0 && <td className={cell}>{pct(point.answerable_handed_off)}</td>}
                {uncovered > 0 && <td className={cell}>{pct(point.uncovered_handed_off ?? 0)}</td>}
                {wrong > 0 && <td className={cell}>{pct(point.wrong_handed_off ?? 0)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}

/**
 * "Your own hand-off threshold": the threshold fitted on the organization's labelled questions for the share of
 * answerable questions the admin accepts to see handed off, with what it does on past questions
 * (docs/decisions/2026-11-29-assistant-learns.md). Admins apply it; agents see it.
 */
export function ThresholdProposal({ canEdit }: { canEdit: boolean }) {
  const id = useId();
  const apply = useApplyThreshold();
  const { register, watch, submit } = useContractForm(form, { target: 0.1 });
  const target = Number(watch("target"));
  const proposal = useThresholdProposal(target);
  const p = proposal.data;
  const onSubmit = submit(
    ["target"],
    async (values) => {
      const done = await apply.mutateAsync(values.target);
      toast.success(`Hand-off threshold set to ${done.proposed?.toFixed(2)}`);
    },
    (error) => toastError(error, APPLY_FAILED),
  );
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        Your own hand-off threshold
      </h2>
      <FieldShell id={`${id}-target`} label="Answerable questions you accept to see handed off">
        <select id={`${id}-target`} className={inputClasses} {...register("target", { setValueAs: Number })}>
          {TARGETS.map((t) => (
            <option key={t} value={t}>
              At most {Math.round(t * 100)}%
            </option>
          ))}
        </select>
      </FieldShell>
      {proposal.error && (
        <p className="text-sm text-red-700">The proposal could not be loaded: {proposal.error.message}</p>
      )}
      {p && (
        <div className="space-y-1 text-sm text-slate-700" aria-live="polite">
          <p>{p.message}</p>
          <p className="text-xs text-slate-500">{currentEffect(p)}</p>
          <ThresholdCurve p={p} />
          {p.automatic && (
            <p className="text-xs text-slate-500">
              Adjusted automatically once {p.automatic_from} questions are labelled (now{" "}
              {p.labelled.answerable + p.labelled.uncovered + p.labelled.wrong}).
            </p>
          )}
        </div>
      )}
      {canEdit && (
        <FormActions size="sm" pending={apply.isPending} disabled={!p || p.proposed === null}>
          Apply {p?.proposed != null ? p.proposed.toFixed(2) : "threshold"}
        </FormActions>
      )}
    </form>
  );
}
