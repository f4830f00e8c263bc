import type { Rule } from "@cove/contract/automation.ts";
import { Plus, Zap } from "lucide-react";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { FigureCards } from "../../../components/ui/figure-cards.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useScrollToHash } from "../../../lib/scroll-to-hash.ts";
import { useAutomationStats, useRules, useSlaTargets } from "../api/automation.api.ts";
import { CannedRepliesManager } from "../components/canned-replies-manager.tsx";
import { RuleFormDialog } from "../components/rule-form-dialog.tsx";
import { RuleList } from "../components/rule-list.tsx";
import { SlaTargets } from "../components/sla-targets.tsx";

function StatCards() {
  const stats = useAutomationStats();
  const value = (n: number | undefined) => (stats.isPending ? "…" : stats.isError ? "–" : String(n ?? 0));
  const cards = [
    { label: "Total Rules", value: value(stats.data?.total_rules) },
    { label: "Active Rules", value: value(stats.data?.active_rules) },
    { label: "Executions Today", value: value(stats.data?.executions_today) },
  ];
  return <FigureCards className="grid grid-cols-3 gap-3 sm:gap-4" cards={cards} />;
}

/**
 * Spec: Automation rules. Admins change them; agents see the rules, their logs, the figures, the SLA targets and the
 * canned replies read-only (docs/product.md, "Roles"). The rules really run, and the figures are real.
 */
export function AutomationRoute() {
  const rules = useRules();
  // docs/product.md, "Roles": agents cannot change automation; they see it read-only (the server refuses their changes).
  const admin = useAuth().user?.role === "admin";
  // null: the create modal; a rule: its edit modal; undefined: no modal.
  const [editing, setEditing] = useState<Rule | null | undefined>(undefined);
  // The business hours (#business-hours, from Getting started) sit below the rules: scroll once both have loaded.
  const targets = useSlaTargets();
  useScrollToHash(!rules.isPending && !targets.isPending);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Automation"
        lead="Rules run on every ticket event, in this order: when the conditions hold, the actions are done."
        actions={
          admin ? (
            <Button onClick={() => setEditing(null)}>
              <Plus className="size-4" aria-hidden="true" />
              Create Rule
            </Button>
          ) : (
            <p className="rounded-md bg-slate-100 px-3 py-1.5 text-sm text-slate-700">
              Read-only: only an admin can change automation.
            </p>
          )
        }
      />

      <StatCards />

      {rules.isPending ? (
        <Loading label="Loading automation rules" />
      ) : rules.isError ? (
        <div className="space-y-3">
          <Alert>Failed to load automation rules</Alert>
          <Button variant="secondary" size="sm" onClick={() => void rules.refetch()}>
            Try again
          </Button>
        </div>
      ) : rules.data.rules.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <Zap className="size-8 text-slate-400" aria-hidden="true" />
          <h2 className="text-base font-semibold text-slate-900">No automation rules</h2>
          <p className="max-w-sm text-sm text-slate-600">
            {admin
              ? "Assign, tag, prioritise or answer tickets by themselves: create your first rule."
              : "Your admins have not set up any rules yet."}
          </p>
          {admin && (
            <Button variant="secondary" onClick={() => setEditing(null)}>
              <Plus className="size-4" aria-hidden="true" />
              Create Rule
            </Button>
          )}
        </div>
      ) : (
        <RuleList rules={rules.data.rules} onEdit={admin ? setEditing : undefined} />
      )}

      <SlaTargets readOnly={!admin} />
      <CannedRepliesManager readOnly={!admin} />

      {admin && editing !== undefined && <RuleFormDialog rule={editing} onClose={() => setEditing(undefined)} />}
    </div>
  );
}
