import {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  type AuditEntry,
  type AuditFilterQuery,
  type AuditVerifyAnswer,
  auditActionLabel,
} from "@cove/contract/audit.ts";
import { Download, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { downloadAuditCsv, useAuditActors, useAuditLog, useVerifyAuditLog } from "../api/audit.api.ts";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

const ACTOR_KINDS: Record<AuditEntry["actor"]["type"], string> = {
  member: "Member",
  api_key: "API key",
  system: "Cove",
  customer: "Customer",
};

/** What an object is called when its entry has no label of its own (the organization's settings, a data export). */
const OBJECT_TYPES: Record<string, string> = {
  organization: "Organization",
  subscription: "Subscription",
  billing_details: "Billing details",
  export: "Data export",
  member: "Member",
  invitation: "Invitation",
  api_key: "API key",
  automation_rule: "Automation rule",
  mailbox: "Mailbox",
};

const objectText = (e: AuditEntry) =>
  e.object ? (e.object.label ?? OBJECT_TYPES[e.object.type] ?? e.object.type) : "";

interface Form {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The form's values as the API's filters: dates are whole days in the browser's time zone. */
function toFilters(f: Form): AuditFilterQuery {
  const [actorType, ...actorId] = f.actor ? f.actor.split(":") : [];
  return {
    actor_type: actorType as AuditFilterQuery["actor_type"],
    actor_id: actorId.join(":") || undefined,
    action: f.action || undefined,
    from: f.from ? new Date(`${f.from}T00:00:00`).toISOString() : undefined,
    to: f.to ? new Date(`${f.to}T23:59:59.999`).toISOString() : undefined,
  };
}

function VerifyResult({ result }: { result: AuditVerifyAnswer }) {
  if (result.intact) {
    return (
      <p role="status" className="text-sm text-emerald-700">
        The audit log is intact: {result.checked} {result.checked === 1 ? "entry" : "entries"} checked.
      </p>
    );
  }
  return (
    <Alert>
      The audit log was altered: entry #{result.brokenAt} does not match. {result.reason}
    </Alert>
  );
}

function Filters({ form, onChange }: { form: Form; onChange: (f: Form) => void }) {
  const actors = useAuditActors();
  const actorOptions = [
    { value: "", label: "Everyone" },
    ...(actors.data?.actors ?? []).map((a) => ({
      value: `${a.type}:${a.id}`,
      label: a.type === "member" ? a.name : `${a.name} (${ACTOR_KINDS[a.type]})`,
    })),
  ];
  const actionOptions = [
    { value: "", label: "All actions" },
    ...AUDIT_ACTION_NAMES.map((name) => ({ value: name, label: AUDIT_ACTIONS[name] })),
  ];
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <SelectField
        label="Who"
        options={actorOptions}
        value={form.actor}
        onChange={(e) => onChange({ ...form, actor: e.target.value })}
      />
      <SelectField
        label="Action"
        options={actionOptions}
        value={form.action}
        onChange={(e) => onChange({ ...form, action: e.target.value })}
      />
      <TextField
        label="From"
        type="date"
        value={form.from}
        onChange={(e) => onChange({ ...form, from: e.target.value })}
      />
      <TextField label="To" type="date" value={form.to} onChange={(e) => onChange({ ...form, to: e.target.value })} />
    </div>
  );
}

function Entries({ entries }: { entries: AuditEntry[] }) {
  return (
    <>
      <ul className="divide-y divide-slate-100 md:hidden" aria-label="Audit log entries">
        {entries.map((e) => (
          <li key={e.id} className="space-y-1 py-3 text-sm">
            <p className="font-medium text-slate-900">{auditActionLabel(e.action)}</p>
            <p className="break-words text-slate-700">{objectText(e)}</p>
            <p className="text-xs text-slate-500">
              {e.actor.name} · {when(e.created_at)}
              {e.address ? ` · ${e.address}` : ""}
            </p>
          </li>
        ))}
      </ul>
      <table className="hidden w-full text-left text-sm md:table">
        <TableHead
          className="border-b border-slate-200 text-xs text-slate-500 uppercase"
          cellClassName="py-2 pr-3 font-medium"
          columns={["Time", "Who", "Action", "Object", { label: "Address", className: "py-2 font-medium" }]}
        />
        <tbody className="divide-y divide-slate-100">
          {entries.map((e) => (
            <tr key={e.id} className="align-top">
              <td className="py-2 pr-3 whitespace-nowrap text-slate-600">{when(e.created_at)}</td>
              <td className="py-2 pr-3">
                <span className="text-slate-900">{e.actor.name}</span>
                {e.actor.type !== "member" && (
                  <span className="block text-xs text-slate-500">{ACTOR_KINDS[e.actor.type]}</span>
                )}
              </td>
              <td className="py-2 pr-3 text-slate-900">{auditActionLabel(e.action)}</td>
              <td className="py-2 pr-3 break-words text-slate-700">{objectText(e)}</td>
              <td className="py-2 text-slate-600">{e.address ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Settings -> Audit log (admins): who did what, filters, more on demand, the CSV, and the chain's check. */
export function AuditLogPanel() {
  const [form, setForm] = useState<Form>({ actor: "", action: "", from: "", to: "" });
  const filters = toFilters(form);
  const log = useAuditLog(filters);
  const verify = useVerifyAuditLog();
  const [downloading, setDownloading] = useState(false);
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <section
      aria-labelledby="audit-title"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="audit-title" className="text-sm font-semibold text-slate-900">
            Audit log
          </h2>
          <p className="text-sm text-slate-600">
            Sign-ins, team, key, settings and billing changes, exports: who did what, and from where. Kept 365 days.
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            variant="secondary"
            pending={downloading}
            onClick={async () => {
              setDownloading(true);
              try {
                await downloadAuditCsv(filters);
              } catch (error) {
                toastError(error, "Failed to download the audit log");
              } finally {
                setDownloading(false);
              }
            }}
          >
            <Download className="size-4" aria-hidden="true" /> Download CSV
          </Button>
          <Button
            variant="secondary"
            pending={verify.isPending}
            onClick={() =>
              verify.mutate(undefined, { onError: (e) => toastError(e, "Failed to verify the audit log") })
            }
          >
            <ShieldCheck className="size-4" aria-hidden="true" /> Verify integrity
          </Button>
        </div>
      </div>
      {verify.data && <VerifyResult result={verify.data} />}
      <Filters form={form} onChange={setForm} />
      {log.isPending ? (
        <Loading label="Loading the audit log" />
      ) : log.isError ? (
        <LoadError title="Error loading the audit log" error={log.error} onRetry={() => void log.refetch()} />
      ) : entries.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-600">No entries match these filters.</p>
      ) : (
        <Entries entries={entries} />
      )}
      {log.hasNextPage && (
        <Button variant="secondary" pending={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          Load more
        </Button>
      )}
    </section>
  );
}
