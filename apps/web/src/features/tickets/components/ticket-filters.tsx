import { TICKET_PRIORITIES, TICKET_STATUSES } from "@cove/contract/tickets.ts";
import { Search, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { PhoneFilters } from "../../../components/ui/phone-filters.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { fullName, useActiveAgents } from "../api/agents.queries.ts";
import type { TicketListParams } from "../api/tickets.queries.ts";
import { PRIORITY_LABELS, STATUS_LABELS } from "./ticket-format.ts";
import { type TicketFilters as Filters, hasFilters, SORT_LABELS } from "./ticket-list-params.ts";

export const SEARCH_DEBOUNCE_MS = 300;

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
      <SearchBox value={params.search ?? ""} onSearch={(search, replace) => onChange({ search }, { replace })} />
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

/**
 * The search box keeps what is typed and sends it to the address bar once typing pauses. When the address changes from
 * outside (back button, a link) the box follows it.
 */
function SearchBox({
  value,
  onSearch,
}: {
  value: string;
  onSearch: (search: string | undefined, replace: boolean) => void;
}) {
  const [text, setText] = useState(value);
  // What the address bar holds (or is about to hold, once our own change lands).
  const sent = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    clearTimeout(timer.current);
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function commit(next: string) {
    clearTimeout(timer.current);
    const search = next.trim();
    if (search === sent.current) return;
    // Refining a search replaces its history entry; starting or clearing one is a step the back button can undo.
    const replace = sent.current !== "" && search !== "";
    sent.current = search;
    onSearch(search || undefined, replace);
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: jsdom, where the component tests run, does not know <search> yet
    <form
      role="search"
      className="space-y-1.5 sm:col-span-2 lg:col-span-1"
      onSubmit={(e) => {
        e.preventDefault();
        commit(text);
      }}
    >
      <label htmlFor="ticket-search" className="block text-sm font-medium text-slate-700">
        Search
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <input
          id="ticket-search"
          type="search"
          value={text}
          maxLength={200}
          placeholder="Subject, requester, #number…"
          className={`${inputClasses} pl-9`}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => commit(next), SEARCH_DEBOUNCE_MS);
          }}
        />
      </div>
    </form>
  );
}
