import { CONDITION_FIELDS, CONDITION_OPERATORS, VALUE_OPERATORS } from "@cove/contract/automation.ts";
import type { UserListItem as User } from "@cove/contract/users.ts";
import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { type DraftCondition, newCondition, type RuleDraft } from "./rule-draft.ts";
import { FIELD_LABELS, OPERATOR_LABELS, VALUE_LABELS } from "./rule-format.ts";

export const options = (list: readonly string[], labels?: Record<string, string>): SelectOption[] =>
  list.map((v) => ({ value: v, label: labels?.[v] ?? v }));

export const memberName = (u: Pick<User, "first_name" | "last_name">) => `${u.first_name} ${u.last_name}`.trim();

/** Status, priority and assignee compared whole are chosen from their labelled values; the rest is typed. */
function valueChoices(c: DraftCondition, members: readonly User[]): SelectOption[] | null {
  if (c.operator !== "equals" && c.operator !== "not_equals") return null;
  const labels = VALUE_LABELS[c.field];
  const choices = labels
    ? Object.entries(labels).map(([value, label]) => ({ value, label }))
    : c.field === "ticket.assignee_id"
      ? members.map((u) => ({ value: u.id, label: memberName(u) }))
      : null;
  if (!choices) return null;
  // A value typed before (another case, a member since removed) stays visible as it is.
  const known = choices.some((o) => o.value === c.value);
  return [
    { value: "", label: "Choose a value…" },
    ...(c.value && !known ? [{ value: c.value, label: c.value }] : []),
    ...choices,
  ];
}

/** The rule's conditions, one row each: field, operator and a value typed or chosen from labelled values. */
export function ConditionRows({ members }: { members: readonly User[] }) {
  const { control } = useFormContext<RuleDraft>();
  const { fields, append, remove } = useFieldArray({ control, name: "conditions" });
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Conditions</legend>
      {fields.length === 0 && (
        <p className="text-sm text-slate-500">No conditions: the rule runs on every such event.</p>
      )}
      {fields.map((row, i) => (
        <ConditionRow key={row.id} index={i} members={members} onRemove={() => remove(i)} />
      ))}
      <Button type="button" variant="secondary" size="sm" onClick={() => append(newCondition())}>
        <Plus className="size-4" aria-hidden="true" />
        Add condition
      </Button>
    </fieldset>
  );
}

function ConditionRow({ index, members, onRemove }: { index: number; members: readonly User[]; onRemove: () => void }) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<RuleDraft>();
  const condition = useWatch({ control, name: `conditions.${index}` });
  const rowErrors = errors.conditions?.[index];
  const n = index + 1;
  const choices = valueChoices(condition, members);
  return (
    <div className="grid items-end gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_1fr_auto]">
      <SelectField
        label={`Condition ${n} field`}
        options={options(CONDITION_FIELDS, FIELD_LABELS)}
        error={rowErrors?.field?.message}
        {...register(`conditions.${index}.field`)}
      />
      <SelectField
        label={`Condition ${n} operator`}
        options={options(CONDITION_OPERATORS, OPERATOR_LABELS)}
        error={rowErrors?.operator?.message}
        {...register(`conditions.${index}.operator`)}
      />
      {choices ? (
        <SelectField
          label={`Condition ${n} value`}
          options={choices}
          error={rowErrors?.value?.message}
          {...register(`conditions.${index}.value`)}
        />
      ) : (
        <TextField
          label={`Condition ${n} value`}
          disabled={!VALUE_OPERATORS.includes(condition.operator)}
          error={rowErrors?.value?.message}
          {...register(`conditions.${index}.value`)}
        />
      )}
      <Button type="button" variant="ghost" size="icon" aria-label={`Remove condition ${n}`} onClick={onRemove}>
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
