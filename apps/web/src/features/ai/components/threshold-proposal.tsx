import { applyThresholdBody } from "@cove/contract/ai.ts";
import { useId } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { SubmitRow } from "../../../components/ui/button.tsx";
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
export function currentEffect(p: Proposal): string {
  const { answerable, uncovered, wrong } = p.labelled;
  if (answerable + uncovered + wrong === 0) {
    return "Nothing is labelled yet, so there is nothing to measure a threshold against: the questions your customers ask from now on will be.";
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
          {p.automatic && (
            <p className="text-xs text-slate-500">
              Adjusted automatically once {p.automatic_from} questions are labelled (now{" "}
              {p.labelled.answerable + p.labelled.uncovered + p.labelled.wrong}).
            </p>
          )}
        </div>
      )}
      {canEdit && (
        <SubmitRow size="sm" pending={apply.isPending} disabled={!p || p.proposed === null}>
          Apply {p?.proposed != null ? p.proposed.toFixed(2) : "threshold"}
        </SubmitRow>
      )}
    </form>
  );
}
