import { TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import { X } from "lucide-react";
import { SearchBox } from "../../../components/search-box.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { PhoneFilters } from "../../../components/ui/phone-filters.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { fullName, useActiveAgents } from "../api/agents.queries.ts";
import type { TicketListParams } from "../api/tickets.queries.ts";
import { PRIORITY_LABELS, STATUS_LABELS } from "./ticket-format.ts";
import { type TicketFilters as Filters, hasFilters, SORT_LABELS } from "./ticket-list-params.ts";

const statusOptions: SelectOption[] = [
  { value: "", label: "All statuses" },
  ...TICKET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];
const sortOptions: SelectOption[] = Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }));
const priorityOptions: SelectOption[] = [
  { value: "", label: "All priorities" },
  ...TICKET_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
];

interface TicketFiltersProps {
  params: TicketListParams;
  /** `replace` keeps one history entry while a search is being refined. */
  onChange: (change: Partial<Filters>, options?: { replace?: boolean }) => void;
}

export function TicketFilters({ params, onChange }: TicketFiltersProps) {
  const { user } = useAuth();
  const agents = useActiveAgents();

  const assigneeOptions: SelectOption[] = [
    { value: "", label: "All assignees" },
    { value: "unassigned", label: "Unassigned" },
    { value: "me", label: "Mine" },
    ...(agents.data ?? []).map((a) => ({
      value: a.id,
      label: a.id === user?.id ? `${fullName(a)} (you)` : fullName(a),
    })),
  ];
  // A link may name an agent who is no longer active: keep the filter visible rather than silently showing "All".
  if (params.assignee_id && !assigneeOptions.some((o) => o.value === params.assignee_id)) {
    assigneeOptions.push({ value: params.assignee_id, label: "Other agent" });
  }

  return (
    <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] lg:items-end">
      <SearchBox
        value={params.search ?? ""}
        onSearch={(search, replace) => onChange({ search }, { replace })}
        label="Search"
        placeholder="Subject, requester, #number…"
        className="sm:col-span-2 lg:col-span-1"
      />
      <PhoneFilters active={[params.status, params.priority, params.assignee_id].filter(Boolean).length}>
        <SelectField
          label="Status"
          options={statusOptions}
          value={params.status ?? ""}
          onChange={(e) => onChange({ status: TICKET_STATUSES.find((s) => s === e.target.value) })}
        />
        <SelectField
          label="Priority"
          options={priorityOptions}
          value={params.priority ?? ""}
          onChange={(e) => onChange({ priority: TICKET_PRIORITIES.find((p) => p === e.target.value) })}
        />
        <SelectField
          label="Assignee"
          options={assigneeOptions}
          value={params.assignee_id ?? ""}
          onChange={(e) => onChange({ assignee_id: e.target.value || undefined })}
        />
        <SelectField
          label="Sort by"
          options={sortOptions}
          value={params.sort ?? "updated"}
          onChange={(e) => onChange({ sort: e.target.value === "sla_due" ? "sla_due" : undefined })}
        />
      </PhoneFilters>
      {hasFilters(params) ? (
        <Button
          variant="ghost"
          onClick={() =>
            onChange({ status: undefined, priority: undefined, assignee_id: undefined, search: undefined })
          }
        >
          <X className="size-4" aria-hidden="true" />
          Clear filters
        </Button>
      ) : (
        <span className="hidden lg:block" />
      )}
    </div>
  );
}
