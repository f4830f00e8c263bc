import { ACTION_TYPES } from "@cove/contract/automation.ts";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { TextAreaField, TextField } from "../../../components/ui/text-field.tsx";
import { PRIORITY_LABELS, STATUS_LABELS } from "../../tickets/index.ts";
import { options } from "./rule-condition-rows.tsx";
import { newAction, type RuleDraft } from "./rule-draft.ts";
import { ACTION_LABELS } from "./rule-format.ts";

/** The rule's actions, one row each: the action's type and that type's fields. A rule keeps at least one. */
export function ActionRows({ assigneeOptions }: { assigneeOptions: readonly SelectOption[] }) {
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<RuleDraft>();
  const { fields, append, remove } = useFieldArray({ control, name: "actions" });
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Actions</legend>
      {fields.map((row, i) => (
        <div
          key={row.id}
          className="grid items-end gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_2fr_auto]"
        >
          <SelectField
            label={`Action ${i + 1}`}
            options={options(ACTION_TYPES, ACTION_LABELS)}
            error={errors.actions?.[i]?.type?.message}
            {...register(`actions.${i}.type`)}
          />
          <ActionFields index={i} assigneeOptions={assigneeOptions} />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remove action ${i + 1}`}
            disabled={fields.length === 1}
            onClick={() => remove(i)}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </Button>
        </div>
      ))}
      <Button type="button" variant="secondary" size="sm" onClick={() => append(newAction())}>
        <Plus className="size-4" aria-hidden="true" />
        Add action
      </Button>
    </fieldset>
  );
}

/** The fields of one action's type (escalate has none). */
function ActionFields({ index, assigneeOptions }: { index: number; assigneeOptions: readonly SelectOption[] }) {
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<RuleDraft>();
  const type = useWatch({ control, name: `actions.${index}.type` });
  const error = errors.actions?.[index];
  const n = index + 1;
  switch (type) {
    case "assign_ticket":
      return (
        <SelectField
          label={`Action ${n} assignee`}
          options={assigneeOptions}
          error={error?.assignee_id?.message}
          {...register(`actions.${index}.assignee_id`)}
        />
      );
    case "change_status":
      return (
        <SelectField
          label={`Action ${n} status`}
          options={options(TICKET_STATUSES, STATUS_LABELS)}
          error={error?.status?.message}
          {...register(`actions.${index}.status`)}
        />
      );
    case "change_priority":
      return (
        <SelectField
          label={`Action ${n} priority`}
          options={options(TICKET_PRIORITIES, PRIORITY_LABELS)}
          error={error?.priority?.message}
          {...register(`actions.${index}.priority`)}
        />
      );
    case "add_tags":
      return (
        <TextField
          label={`Action ${n} tags`}
          hint="Separate tags with commas"
          error={error?.tags?.message}
          {...register(`actions.${index}.tags`)}
        />
      );
    case "add_comment":
      return <CommentFields index={index} error={error?.comment?.message} />;
    case "escalate":
      return <p className="text-sm text-slate-600">Sets the priority to urgent and notifies every admin.</p>;
  }
}

function CommentFields({ index, error }: { index: number; error: string | undefined }) {
  const { register } = useFormContext<RuleDraft>();
  const id = `rule-action-${index + 1}-comment`;
  const hint = "Placeholders: {{ticket.requester_name}}, {{ticket.subject}}, {{ticket.ticket_number}}";
  return (
    <div className="space-y-2">
      <TextAreaField
        id={id}
        label={`Action ${index + 1} comment`}
        hint={hint}
        error={error}
        rows={3}
        {...register(`actions.${index}.comment`)}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="size-4 rounded border-slate-300 text-indigo-600"
          {...register(`actions.${index}.is_public`)}
        />
        Public reply (the customer sees it)
      </label>
    </div>
  );
}
