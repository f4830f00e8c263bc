import {
  ACTION_TYPES,
  type ActionType,
  CONDITION_FIELDS,
  CONDITION_OPERATORS,
  type ConditionOperator,
  type CreateRuleBody,
  isTimeTrigger,
  type MATCH_MODES,
  ROUND_ROBIN,
  RULE_EVENTS,
  type Rule,
  type RuleEvent,
  TIME_UNITS,
  VALUE_OPERATORS,
} from "@cove/contract/automation.ts";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import * as Dialog from "@radix-ui/react-dialog";
import { Plus, Trash2, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { FieldShell, inputClasses, TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { PRIORITY_LABELS, STATUS_LABELS } from "../../tickets/index.ts";
import { useCreateRule, useTeamMembers, useUpdateRule } from "../api/automation.api.ts";
import { ACTION_LABELS, EVENT_LABELS, FIELD_LABELS, OPERATOR_LABELS, VALUE_LABELS } from "./rule-format.ts";

interface DraftCondition {
  field: string;
  operator: ConditionOperator;
  value: string;
}

/** Every action's fields at once, so switching an action's type keeps what was typed. */
interface DraftAction {
  type: ActionType;
  assignee_id: string;
  status: string;
  priority: string;
  tags: string;
  comment: string;
  is_public: boolean;
}

interface Draft {
  name: string;
  description: string;
  event: RuleEvent;
  /** A time-based trigger's wait, as typed. */
  afterAmount: string;
  afterUnit: (typeof TIME_UNITS)[number];
  match: (typeof MATCH_MODES)[number];
  conditions: DraftCondition[];
  actions: DraftAction[];
  isActive: boolean;
}

/** Spec section 5: a new condition is ticket.status equals (empty); a new action is assign_ticket. */
const newCondition = (): DraftCondition => ({ field: "ticket.status", operator: "equals", value: "" });
const newAction = (type: ActionType = "assign_ticket"): DraftAction => ({
  type,
  assignee_id: "",
  status: "open",
  priority: "normal",
  tags: "",
  comment: "",
  is_public: false,
});

function draftOf(rule: Rule | null): Draft {
  if (!rule) {
    return {
      name: "",
      description: "",
      event: "ticket_created",
      afterAmount: "3",
      afterUnit: "days",
      match: "all",
      conditions: [],
      actions: [newAction()],
      isActive: true,
    };
  }
  return {
    name: rule.name,
    description: rule.description,
    event: rule.trigger_conditions.event,
    afterAmount: String(rule.trigger_conditions.after?.amount ?? 3),
    afterUnit: rule.trigger_conditions.after?.unit ?? "days",
    match: rule.trigger_conditions.match,
    conditions: rule.trigger_conditions.conditions.map((c) => ({
      field: c.field,
      operator: c.operator as ConditionOperator,
      value: c.value,
    })),
    actions: rule.actions.map((a) => ({
      ...newAction(a.type as ActionType),
      assignee_id: typeof a.assignee_id === "string" ? a.assignee_id : "",
      status: typeof a.status === "string" ? a.status : "open",
      priority: typeof a.priority === "string" ? a.priority : "normal",
      tags: Array.isArray(a.tags) ? a.tags.join(", ") : "",
      comment: typeof a.comment === "string" ? a.comment : "",
      is_public: a.is_public === true,
    })),
    isActive: rule.is_active,
  };
}

/** The rule as docs/product.md, "API calls" sends it: name, description, triggerConditions, actions, isActive. */
function bodyOf(draft: Draft): CreateRuleBody {
  return {
    name: draft.name,
    description: draft.description,
    triggerConditions: {
      event: draft.event,
      after: isTimeTrigger(draft.event) ? { amount: Number(draft.afterAmount), unit: draft.afterUnit } : null,
      match: draft.match,
      conditions: draft.conditions.map((c) => ({
        field: c.field as (typeof CONDITION_FIELDS)[number],
        operator: c.operator,
        value: VALUE_OPERATORS.includes(c.operator) ? c.value : "",
      })),
    },
    actions: draft.actions.map((a): CreateRuleBody["actions"][number] => {
      switch (a.type) {
        case "assign_ticket":
          return { type: a.type, assignee_id: a.assignee_id };
        case "change_status":
          return { type: a.type, status: a.status as (typeof TICKET_STATUSES)[number] };
        case "change_priority":
          return { type: a.type, priority: a.priority as (typeof TICKET_PRIORITIES)[number] };
        case "add_tags":
          return { type: a.type, tags: a.tags.split(",").filter((t) => t.trim() !== "") };
        case "add_comment":
          return { type: a.type, comment: a.comment, is_public: a.is_public };
        default:
          return { type: "escalate" };
      }
    }),
    isActive: draft.isActive,
  };
}

const options = (list: readonly string[], labels?: Record<string, string>) =>
  list.map((v) => ({ value: v, label: labels?.[v] ?? v }));

/** Spec: the create/edit modal. Name is required; the server checks the rest field by field and says what is wrong. */
export function RuleFormDialog({ rule, onClose }: { rule: Rule | null; onClose: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(rule));
  const [nameError, setNameError] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const create = useCreateRule();
  const update = useUpdateRule();
  const team = useTeamMembers();
  const pending = create.isPending || update.isPending;
  const members = (team.data?.users ?? []).filter((u) => u.status === "active");
  /** Status, priority and assignee compared whole are chosen from their labelled values; the rest is typed. */
  const valueChoices = (c: DraftCondition) => {
    if (c.operator !== "equals" && c.operator !== "not_equals") return null;
    const labels = VALUE_LABELS[c.field];
    const choices = labels
      ? Object.entries(labels).map(([value, label]) => ({ value, label }))
      : c.field === "ticket.assignee_id"
        ? members.map((u) => ({ value: u.id, label: `${u.first_name} ${u.last_name}`.trim() }))
        : null;
    if (!choices) return null;
    // A value typed before (another case, a member since removed) stays visible as it is.
    const known = choices.some((o) => o.value === c.value);
    return [
      { value: "", label: "Choose a value…" },
      ...(c.value && !known ? [{ value: c.value, label: c.value }] : []),
      ...choices,
    ];
  };
  const assigneeOptions = [
    { value: "", label: "Choose a member…" },
    { value: ROUND_ROBIN, label: "Round robin (active agents in turn)" },
    ...members.map((u) => ({ value: u.id, label: `${u.first_name} ${u.last_name}`.trim() })),
  ];

  const patch = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const setAction = (i: number, change: Partial<DraftAction>) =>
    patch({ actions: draft.actions.map((a, j) => (j === i ? { ...a, ...change } : a)) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setServerError(undefined);
    if (draft.name.trim() === "") {
      setNameError("Rule name is required");
      return;
    }
    try {
      const body = bodyOf(draft);
      if (rule) await update.mutateAsync({ id: rule.id, body });
      else await create.mutateAsync(body);
      toast.success(rule ? "Rule updated" : "Rule created");
      onClose();
    } catch (error) {
      setServerError(errorText(error, "The rule could not be saved."));
    }
  }

  const title = rule ? "Edit Rule" : "Create Rule";
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !pending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" className="-mt-2 -mr-2" aria-label="Close">
                <X className="size-5" aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>
          <form onSubmit={submit} noValidate aria-label={title} className="mt-4 space-y-5">
            <TextField
              label="Rule name"
              maxLength={120}
              value={draft.name}
              error={nameError}
              onChange={(e) => {
                patch({ name: e.target.value });
                setNameError(undefined);
              }}
            />
            <FieldShell id="rule-description" label="Description">
              <textarea
                id="rule-description"
                rows={2}
                maxLength={1000}
                className={inputClasses}
                value={draft.description}
                onChange={(e) => patch({ description: e.target.value })}
              />
            </FieldShell>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Trigger event"
                options={options(RULE_EVENTS, EVENT_LABELS)}
                value={draft.event}
                onChange={(e) => patch({ event: e.target.value as RuleEvent })}
              />
              <SelectField
                label="Conditions must"
                options={[
                  { value: "all", label: "All hold" },
                  { value: "any", label: "Any one hold" },
                ]}
                value={draft.match}
                onChange={(e) => patch({ match: e.target.value as Draft["match"] })}
              />
            </div>

            {isTimeTrigger(draft.event) && (
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="For at least"
                  type="number"
                  min={1}
                  max={1000}
                  value={draft.afterAmount}
                  onChange={(e) => patch({ afterAmount: e.target.value })}
                  hint="Checked every few minutes; each ticket once each time it gets there."
                />
                <SelectField
                  label="Unit"
                  options={options(TIME_UNITS)}
                  value={draft.afterUnit}
                  onChange={(e) => patch({ afterUnit: e.target.value as Draft["afterUnit"] })}
                />
              </div>
            )}
            <ConditionRows
              conditions={draft.conditions}
              onChange={(conditions) => patch({ conditions })}
              valueChoices={valueChoices}
            />

            <fieldset className="space-y-3">
              <legend className="text-sm font-medium text-slate-700">Actions</legend>
              {draft.actions.map((a, i) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; order is the key
                  key={i}
                  className="grid items-end gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_2fr_auto]"
                >
                  <SelectField
                    label={`Action ${i + 1}`}
                    options={options(ACTION_TYPES, ACTION_LABELS)}
                    value={a.type}
                    onChange={(e) => setAction(i, { type: e.target.value as ActionType })}
                  />
                  <ActionFields action={a} index={i} assigneeOptions={assigneeOptions} onChange={setAction} />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove action ${i + 1}`}
                    disabled={draft.actions.length === 1}
                    onClick={() => patch({ actions: draft.actions.filter((_, j) => j !== i) })}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </Button>
                </div>
              ))}
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => patch({ actions: [...draft.actions, newAction()] })}
              >
                <Plus className="size-4" aria-hidden="true" />
                Add action
              </Button>
            </fieldset>

            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300 text-indigo-600"
                checked={draft.isActive}
                onChange={(e) => patch({ isActive: e.target.checked })}
              />
              Activate this rule immediately
            </label>

            {serverError && <Alert>{serverError}</Alert>}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button type="button" variant="secondary" disabled={pending} onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" pending={pending}>
                {rule ? "Save Rule" : "Create Rule"}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The fields of one action's type (escalate has none). */
function ActionFields({
  action,
  index,
  assigneeOptions,
  onChange,
}: {
  action: DraftAction;
  index: number;
  assigneeOptions: { value: string; label: string }[];
  onChange: (index: number, change: Partial<DraftAction>) => void;
}) {
  const n = index + 1;
  switch (action.type) {
    case "assign_ticket":
      return (
        <SelectField
          label={`Action ${n} assignee`}
          options={assigneeOptions}
          value={action.assignee_id}
          onChange={(e) => onChange(index, { assignee_id: e.target.value })}
        />
      );
    case "change_status":
      return (
        <SelectField
          label={`Action ${n} status`}
          options={options(TICKET_STATUSES, STATUS_LABELS)}
          value={action.status}
          onChange={(e) => onChange(index, { status: e.target.value })}
        />
      );
    case "change_priority":
      return (
        <SelectField
          label={`Action ${n} priority`}
          options={options(TICKET_PRIORITIES, PRIORITY_LABELS)}
          value={action.priority}
          onChange={(e) => onChange(index, { priority: e.target.value })}
        />
      );
    case "add_tags":
      return (
        <TextField
          label={`Action ${n} tags`}
          hint="Separate tags with commas"
          value={action.tags}
          onChange={(e) => onChange(index, { tags: e.target.value })}
        />
      );
    case "add_comment":
      return (
        <div className="space-y-2">
          <FieldShell
            id={`rule-action-${n}-comment`}
            label={`Action ${n} comment`}
            hint="Placeholders: {{ticket.requester_name}}, {{ticket.subject}}, {{ticket.ticket_number}}"
          >
            <textarea
              id={`rule-action-${n}-comment`}
              rows={3}
              className={inputClasses}
              value={action.comment}
              onChange={(e) => onChange(index, { comment: e.target.value })}
            />
          </FieldShell>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300 text-indigo-600"
              checked={action.is_public}
              onChange={(e) => onChange(index, { is_public: e.target.checked })}
            />
            Public reply (the customer sees it)
          </label>
        </div>
      );
    case "escalate":
      return <p className="text-sm text-slate-600">Sets the priority to urgent and notifies every admin.</p>;
  }
}

/** The rule's conditions, one row each: field, operator and a value typed or chosen from labelled values. */
function ConditionRows({
  conditions,
  onChange,
  valueChoices,
}: {
  conditions: DraftCondition[];
  onChange: (conditions: DraftCondition[]) => void;
  valueChoices: (c: DraftCondition) => { value: string; label: string }[] | null;
}) {
  const setCondition = (i: number, change: Partial<DraftCondition>) =>
    onChange(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Conditions</legend>
      {conditions.length === 0 && (
        <p className="text-sm text-slate-500">No conditions: the rule runs on every such event.</p>
      )}
      {conditions.map((c, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; order is the key
          key={i}
          className="grid items-end gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_1fr_auto]"
        >
          <SelectField
            label={`Condition ${i + 1} field`}
            options={options(CONDITION_FIELDS, FIELD_LABELS)}
            value={c.field}
            onChange={(e) => setCondition(i, { field: e.target.value })}
          />
          <SelectField
            label={`Condition ${i + 1} operator`}
            options={options(CONDITION_OPERATORS, OPERATOR_LABELS)}
            value={c.operator}
            onChange={(e) => setCondition(i, { operator: e.target.value as ConditionOperator })}
          />
          {valueChoices(c) ? (
            <SelectField
              label={`Condition ${i + 1} value`}
              options={valueChoices(c) ?? []}
              value={c.value}
              onChange={(e) => setCondition(i, { value: e.target.value })}
            />
          ) : (
            <TextField
              label={`Condition ${i + 1} value`}
              value={c.value}
              disabled={!VALUE_OPERATORS.includes(c.operator)}
              onChange={(e) => setCondition(i, { value: e.target.value })}
            />
          )}
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Remove condition ${i + 1}`}
            onClick={() => onChange(conditions.filter((_, j) => j !== i))}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </Button>
        </div>
      ))}
      <Button type="button" variant="secondary" size="sm" onClick={() => onChange([...conditions, newCondition()])}>
        <Plus className="size-4" aria-hidden="true" />
        Add condition
      </Button>
    </fieldset>
  );
}
