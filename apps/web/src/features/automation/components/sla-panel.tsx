import type { SlaClock } from "@cove/contract/sla.ts";
import { clsx } from "clsx";
import { formatDateTime } from "../../tickets/index.ts";
import { useTicketSla } from "../api/automation.api.ts";

const STATE_TEXT: Record<SlaClock["state"], string> = {
  on_track: "On track",
  close: "Close to breach",
  breached: "Breached",
  met: "Met",
  met_late: "Met late",
};
const STATE_CLASS: Record<SlaClock["state"], string> = {
  on_track: "bg-slate-100 text-slate-700",
  close: "bg-amber-100 text-amber-800",
  breached: "bg-red-100 text-red-800",
  met: "bg-emerald-100 text-emerald-800",
  met_late: "bg-orange-100 text-orange-800",
};

function Row({ label, clock }: { label: string; clock: SlaClock }) {
  const at = clock.done_at ?? clock.due_at;
  return (
    <div className="flex items-start justify-between gap-2">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-right text-sm">
        <span className={clsx("rounded-full px-2 py-0.5 text-xs font-medium", STATE_CLASS[clock.state])}>
          {STATE_TEXT[clock.state]}
        </span>
        <span className="mt-1 block text-xs text-slate-500">
          {clock.done_at ? "done " : "due "}
          <time dateTime={at}>{formatDateTime(at)}</time>
        </span>
      </dd>
    </div>
  );
}

/** A ticket's SLA due times and how they stand; nothing when its priority has no target. */
export function SlaPanel({ ticketId }: { ticketId: string }) {
  const sla = useTicketSla(ticketId);
  if (!sla.data || (!sla.data.first_response && !sla.data.resolution)) return null;
  return (
    <section aria-label="SLA" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-3 text-sm font-semibold text-slate-900">SLA</h2>
      <dl className="space-y-3">
        {sla.data.first_response && <Row label="First response" clock={sla.data.first_response} />}
        {sla.data.resolution && <Row label="Resolution" clock={sla.data.resolution} />}
      </dl>
    </section>
  );
}
