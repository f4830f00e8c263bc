import type { Rule } from "@cove/contract/automation.ts";
import { clsx } from "clsx";
import { History, Pause, Pencil, Play, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useDeleteRule, useTeamMembers, useUpdateRule } from "../api/automation.api.ts";
import { describeAction, describeCondition, describeTrigger } from "./rule-format.ts";
import { RuleRuns } from "./rule-runs.tsx";

/**
 * Spec: the list of rules, each with a pause/activate button and edit and delete controls (plus its run log). Without
 * onEdit (an agent's read-only view) only the run log can be opened.
 */
export function RuleList({ rules, onEdit }: { rules: Rule[]; onEdit?: (rule: Rule) => void }) {
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const team = useTeamMembers();
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const memberName = (id: string) => {
    const u = team.data?.users.find((m) => m.id === id);
    return u ? `${u.first_name} ${u.last_name}`.trim() : "a former member";
  };

  async function toggle(rule: Rule) {
    try {
      // The pause/activate button sends only the is_active flag.
      await update.mutateAsync({ id: rule.id, body: { isActive: !rule.is_active } });
      toast.success(rule.is_active ? `Rule "${rule.name}" paused` : `Rule "${rule.name}" activated`);
    } catch (error) {
      toastError(error, "The rule could not be changed.");
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(`Rule "${deleting.name}" deleted`);
      setDeleting(null);
    } catch (error) {
      toastError(error, "The rule could not be deleted.");
    }
  }

  return (
    <>
      <ul aria-label="Automation rules" className="space-y-3">
        {rules.map((rule) => (
          <li
            key={rule.id}
            aria-label={rule.name}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="font-semibold break-words text-slate-900">{rule.name}</h2>
                  <span
                    className={clsx(
                      "rounded-full px-2 py-0.5 text-xs font-medium",
                      rule.is_active ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600",
                    )}
                  >
                    {rule.is_active ? "Active" : "Paused"}
                  </span>
                </div>
                {rule.description && <p className="text-sm break-words text-slate-600">{rule.description}</p>}
                <p className="text-sm text-slate-700">
                  <span className="font-medium">When:</span> {describeTrigger(rule.trigger_conditions)}
                  {rule.trigger_conditions.conditions.length > 0 &&
                    ` and ${rule.trigger_conditions.match === "any" ? "any of" : "all of"}: ${rule.trigger_conditions.conditions
                      .map((c) => describeCondition(c, memberName))
                      .join("; ")}`}
                </p>
                <p className="text-sm text-slate-700">
                  <span className="font-medium">Then:</span>{" "}
                  {rule.actions.map((a) => describeAction(a, memberName)).join("; ")}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-1">
                {onEdit && (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={rule.is_active ? `Pause ${rule.name}` : `Activate ${rule.name}`}
                    onClick={() => void toggle(rule)}
                  >
                    {rule.is_active ? (
                      <Pause className="size-4" aria-hidden="true" />
                    ) : (
                      <Play className="size-4" aria-hidden="true" />
                    )}
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Run log of ${rule.name}`}
                  aria-expanded={logOf === rule.id}
                  onClick={() => setLogOf(logOf === rule.id ? null : rule.id)}
                >
                  <History className="size-4" aria-hidden="true" />
                </Button>
                {onEdit && (
                  <Button variant="ghost" size="icon" aria-label={`Edit ${rule.name}`} onClick={() => onEdit(rule)}>
                    <Pencil className="size-4" aria-hidden="true" />
                  </Button>
                )}
                {onEdit && (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Delete ${rule.name}`}
                    onClick={() => setDeleting(rule)}
                  >
                    <Trash2 className="size-4 text-red-600" aria-hidden="true" />
                  </Button>
                )}
              </div>
            </div>
            {logOf === rule.id && <RuleRuns ruleId={rule.id} />}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Are you sure you want to delete the rule "${deleting?.name ?? ""}"?`}
        confirmLabel="Delete"
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
