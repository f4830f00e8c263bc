import { useId } from "react";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { downloadUnfiled, useUnfiledMail } from "../api/email.api.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Settings > Email Settings: mail that reached the inbound address and became no ticket (bounces, automatic replies,
 * messages that could not be read), or became one that nothing answered (a sender past the loop guard), with why, so
 * an admin can see that nothing was lost.
 */
export function UnfiledMail() {
  const id = useId();
  const unfiled = useUnfiledMail();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Mail not filed or not acknowledged
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Received but made into no ticket: delivery reports, automatic replies and messages that could not be read.
          Mail from a sender writing faster than a person (a mail loop?) is filed, but not acknowledged.
        </p>
      </div>
      {unfiled.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> Loading...
        </p>
      ) : unfiled.isError ? (
        <Alert>Failed to load the unfiled mail</Alert>
      ) : unfiled.data.messages.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing so far.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {unfiled.data.messages.map((m) => (
            <li key={m.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{m.subject || "(no subject)"}</p>
                <p className="truncate text-xs text-slate-500">
                  {m.address || "unknown sender"} ·{" "}
                  <time dateTime={m.received_at}>{when.format(new Date(m.received_at))}</time>
                </p>
                <p className="text-xs text-slate-700">{m.reason}</p>
              </div>
              {m.status === "received" && m.ticket_id && (
                <Link to={`/tickets/${m.ticket_id}`} className="text-xs font-medium text-indigo-700 hover:underline">
                  Open ticket
                </Link>
              )}
              {m.has_raw && (
                <button
                  type="button"
                  className="text-xs font-medium text-indigo-700 hover:underline"
                  onClick={() => downloadUnfiled(m.id).catch((error: unknown) => toastError(error, "Download failed"))}
                >
                  Download message
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
