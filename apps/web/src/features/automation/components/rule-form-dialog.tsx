import { isTimeTrigger, ROUND_ROBIN, RULE_EVENTS, type Rule, TIME_UNITS } from "@cove/contract/automation.ts";
import { useState } from "react";
import { FormProvider, useFormContext, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextAreaField, TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useCreateRule, useTeamMembers, useUpdateRule } from "../api/automation.api.ts";
import { ActionRows } from "./rule-action-rows.tsx";
import { ConditionRows, memberName, options } from "./rule-condition-rows.tsx";
import { bodyOf, draftOf, type RuleDraft, ruleDraft, ruleField } from "./rule-draft.ts";
import { EVENT_LABELS } from "./rule-format.ts";

/**
 * docs/product.md, "Automation": the create/edit modal. The name is checked here; the server checks the rest field by
 * field, and each message lands under its input (or above the buttons when it is about the rule as a whole).
 */
export function RuleFormDialog({ rule, onClose }: { rule: Rule | null; onClose: () => void }) {
  const form = useContractForm(ruleDraft, draftOf(rule));
  const [serverError, setServerError] = useState<string>();
  const create = useCreateRule();
  const update = useUpdateRule();
  const team = useTeamMembers();
  const pending = create.isPending || update.isPending;
  const members = (team.data?.users ?? []).filter((u) => u.status === "active");
  const assigneeOptions = [
    { value: "", label: "Choose a member…" },
    { value: ROUND_ROBIN, label: "Round robin (active agents in turn)" },
    ...members.map((u) => ({ value: u.id, label: memberName(u) })),
  ];

  const save = form.submit(
    ruleField,
    async (values) => {
      const body = bodyOf(values);
      if (rule) await update.mutateAsync({ id: rule.id, body });
      else await create.mutateAsync(body);
      toast.success(rule ? "Rule updated" : "Rule created");
      onClose();
    },
    (error) => setServerError(errorText(error, "The rule could not be saved.")),
  );

  const title = rule ? "Edit Rule" : "Create Rule";
  return (
    <FormDialog open onOpenChange={(open) => !open && onClose()} pending={pending} title={title} width="max-w-2xl">
      <FormProvider {...form}>
        <form
          onSubmit={(event) => {
            setServerError(undefined);
            void save(event);
          }}
          noValidate
          aria-label={title}
          className="mt-4 space-y-5"
        >
          <RuleTrigger />
          <ConditionRows members={members} />
          <ActionRows assigneeOptions={assigneeOptions} />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300 text-indigo-600"
              {...form.register("isActive")}
            />
            Activate this rule immediately
          </label>

          {serverError && <Alert>{serverError}</Alert>}
          <FormActions onCancel={onClose} pending={pending}>
            {rule ? "Save Rule" : "Create Rule"}
          </FormActions>
        </form>
      </FormProvider>
    </FormDialog>
  );
}

/** Name, description, the trigger event (with its wait, for a time-based one) and how the conditions combine. */
function RuleTrigger() {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<RuleDraft>();
  const event = useWatch({ control, name: "event" });
  const descriptionError = errors.description?.message;
  return (
    <>
      <TextField label="Rule name" maxLength={120} error={errors.name?.message} {...register("name")} />
      <TextAreaField
        id="rule-description"
        label="Description"
        error={descriptionError}
        rows={2}
        maxLength={1000}
        {...register("description")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Trigger event"
          options={options(RULE_EVENTS, EVENT_LABELS)}
          error={errors.event?.message}
          {...register("event")}
        />
        <SelectField
          label="Conditions must"
          options={[
            { value: "all", label: "All hold" },
            { value: "any", label: "Any one hold" },
          ]}
          error={errors.match?.message}
          {...register("match")}
        />
      </div>
      {isTimeTrigger(event) && (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="For at least"
            type="number"
            min={1}
            max={1000}
            hint="Checked every few minutes; each ticket once each time it gets there."
            error={errors.afterAmount?.message}
            {...register("afterAmount")}
          />
          <SelectField
            label="Unit"
            options={options(TIME_UNITS)}
            error={errors.afterUnit?.message}
            {...register("afterUnit")}
          />
        </div>
      )}
    </>
  );
}
