import { TICKET_PRIORITIES, TICKET_STATUSES, type Ticket, type TicketRating } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { ThumbsDown, ThumbsUp, UserRoundCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField, type SelectOption } from "../../../components/ui/select-field.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { fullName, useActiveAgents } from "../api/agents.queries.ts";
import { useUpdateTicket } from "../api/tickets.mutations.ts";
import { ActivityTimeline } from "./activity-timeline.tsx";
import { TagEditor } from "./tag-editor.tsx";
import { formatDateTime, PRIORITY_LABELS, personName, SOURCE_LABELS, STATUS_LABELS } from "./ticket-format.ts";

const statusOptions: SelectOption[] = TICKET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));
const priorityOptions: SelectOption[] = TICKET_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

function Panel({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The customer's answer to the satisfaction survey: Good or Bad, their comment, and when. */
function CustomerRating({ rating }: { rating: TicketRating }) {
  const good = rating.rating === "good";
  const Icon = good ? ThumbsUp : ThumbsDown;
  return (
    <Panel title="Customer rating">
      <p
        className={clsx(
          "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-medium",
          good ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800",
        )}
      >
        <Icon className="size-4" aria-hidden="true" />
        {good ? "Good" : "Bad"}
      </p>
      {rating.comment && (
        <blockquote className="mt-2 border-l-2 border-slate-200 pl-3 text-sm break-words whitespace-pre-wrap text-slate-700">
          {rating.comment}
        </blockquote>
      )}
      <p className="mt-2 text-xs text-slate-500">
        Rated <time dateTime={rating.rated_at}>{formatDateTime(rating.rated_at)}</time>
      </p>
    </Panel>
  );
}

/** Status, priority, assignee and tags save as soon as they change (spec: no Save button). */
export function TicketSidePanel({ ticket }: { ticket: Ticket }) {
  const { user } = useAuth();
  const agents = useActiveAgents();
  const update = useUpdateTicket(ticket.id);

  const assigneeOptions: SelectOption[] = [
    { value: "", label: "Unassigned" },
    ...(agents.data ?? []).map((a) => ({
      value: a.id,
      label: a.id === user?.id ? `${fullName(a)} (you)` : fullName(a),
    })),
  ];
  // Someone who has since left the team (or a list that failed to load) still shows as the current assignee.
  if (ticket.assignee_id && !assigneeOptions.some((o) => o.value === ticket.assignee_id)) {
    assigneeOptions.push({
      value: ticket.assignee_id,
      label: personName(ticket.assignee_first_name, ticket.assignee_last_name) ?? "Unknown agent",
    });
  }

  function assign(assigneeId: string) {
    if (assigneeId === "") return update.mutate({ body: { assignee_id: null }, assignee: null });
    const agent = agents.data?.find((a) => a.id === assigneeId);
    update.mutate({ body: { assignee_id: assigneeId }, assignee: agent ?? null });
  }

  const saving = update.isPending ? <Spinner className="size-3.5 text-indigo-600" label="Saving" /> : undefined;

  return (
    <div className="space-y-4">
      <Panel title="Properties" aside={saving}>
        <div className="space-y-4">
          <SelectField
            label="Status"
            options={statusOptions}
            value={ticket.status}
            onChange={(e) => {
              const status = TICKET_STATUSES.find((s) => s === e.target.value);
              if (status) update.mutate({ body: { status } });
            }}
          />
          <SelectField
            label="Priority"
            options={priorityOptions}
            value={ticket.priority}
            onChange={(e) => {
              const priority = TICKET_PRIORITIES.find((p) => p === e.target.value);
              if (priority) update.mutate({ body: { priority } });
            }}
          />
          <div className="space-y-2">
            <SelectField
              label="Assignee"
              options={assigneeOptions}
              value={ticket.assignee_id ?? ""}
              onChange={(e) => assign(e.target.value)}
            />
            {user && ticket.assignee_id !== user.id && (
              <Button
                variant="secondary"
                size="sm"
                className="w-full"
                onClick={() =>
                  update.mutate({
                    body: { assignee_id: user.id },
                    assignee: { first_name: user.firstName, last_name: user.lastName },
                  })
                }
              >
                <UserRoundCheck className="size-4" aria-hidden="true" />
                Assign to me
              </Button>
            )}
          </div>
          <TagEditor tags={ticket.tags} onChange={(tags) => update.mutate({ body: { tags } })} />
        </div>
      </Panel>

      {ticket.rating && <CustomerRating rating={ticket.rating} />}

      <Panel title="Details">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-900">
            <time dateTime={ticket.created_at}>{formatDateTime(ticket.created_at)}</time>
          </dd>
          <dt className="text-slate-500">Updated</dt>
          <dd className="text-slate-900">
            <time dateTime={ticket.updated_at}>{formatDateTime(ticket.updated_at)}</time>
          </dd>
          <dt className="text-slate-500">Source</dt>
          <dd className="text-slate-900">{SOURCE_LABELS[ticket.source]}</dd>
        </dl>
      </Panel>

      <Panel title="Activity">
        <ActivityTimeline activity={ticket.activity} />
      </Panel>
    </div>
  );
}
