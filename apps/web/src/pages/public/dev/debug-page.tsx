import { Bug, Trash } from "lucide-react";
import { useSyncExternalStore } from "react";
import { Button } from "../../../components/ui/button.tsx";
import {
  clearDebugLog,
  DEBUG_LOG_LIMIT,
  type DebugEntry,
  getDebugLog,
  subscribeDebugLog,
} from "../../../lib/debug-log.ts";
import { DevHeading, DevPage } from "./dev-page.tsx";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function EntryRow({ entry }: { entry: DebugEntry }) {
  const time = new Date(entry.at);
  return (
    <li className="grid gap-2 px-4 py-4 sm:grid-cols-[7rem_9rem_1fr] sm:gap-4 sm:px-6">
      <time dateTime={entry.at} className="font-mono text-sm text-slate-600 tabular-nums">
        {timeFormat.format(time)}
      </time>
      <span>
        {entry.kind === "api" ? (
          <span className="rounded bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700">API call</span>
        ) : (
          <span className="rounded bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-800">Error boundary</span>
        )}
      </span>
      <div className="min-w-0 text-sm">
        {entry.kind === "api" ? (
          <p className="font-mono break-all text-slate-900">
            <span className="font-semibold">{entry.status === 0 ? "no answer" : entry.status}</span> {entry.method} /api
            {entry.path} <span className="text-slate-500">{entry.code}</span>
          </p>
        ) : (
          <p className="font-mono break-all text-slate-900">on {entry.page}</p>
        )}
        <p className="mt-1 break-words text-slate-700">{entry.message}</p>
        {entry.kind === "boundary" && entry.stack && (
          <details className="mt-2">
            <summary className="cursor-pointer rounded-sm text-slate-600 hover:text-slate-900">Stack trace</summary>
            <pre className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">{entry.stack}</pre>
          </details>
        )}
      </div>
    </li>
  );
}

/** Developer page: the web app's recent problems in this tab (see lib/debug-log.ts). */
export function DebugPage() {
  const entries = useSyncExternalStore(subscribeDebugLog, getDebugLog, getDebugLog);

  return (
    <DevPage
      title="Debug log · Cove"
      description="Developer page: recent errors caught by Cove's error boundaries and failed API calls in this browser tab."
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <DevHeading title="Debug log">
            Errors caught by the app's error boundaries and API calls that failed, newest first. The log lives in this
            browser tab only and keeps the latest {DEBUG_LOG_LIMIT} entries.
          </DevHeading>
        </div>
        <Button variant="secondary" onClick={clearDebugLog} disabled={entries.length === 0} className="shrink-0">
          <Trash className="size-4" aria-hidden="true" />
          Clear log
        </Button>
      </div>

      <section aria-label="Log entries" className="mt-8 rounded-xl border border-slate-200 bg-white">
        {entries.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
            <Bug className="size-8 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">Nothing logged in this tab</p>
            <p className="max-w-md text-sm text-slate-600">
              When an API call fails or a page crashes, it shows up here with its status, path and message.
            </p>
          </div>
        ) : (
          <>
            <p className="border-b border-slate-200 px-4 py-3 text-sm text-slate-600 sm:px-6" aria-live="polite">
              {entries.length === 1 ? "1 entry" : `${entries.length} entries`}
            </p>
            <ul className="divide-y divide-slate-200">
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </ul>
          </>
        )}
      </section>
    </DevPage>
  );
}
