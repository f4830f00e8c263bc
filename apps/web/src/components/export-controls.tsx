import type { DataExport } from "@cove/contract/settings.ts";
import { Download } from "lucide-react";
import { toastError } from "../lib/toast-error.ts";
import { Button } from "./ui/button.tsx";

const size = (bytes: number | null) =>
  bytes === null
    ? ""
    : bytes < 1024 * 1024
      ? `${Math.ceil(bytes / 1024)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A background export's progress and buttons, as the organization's export (Settings) and a customer's (their
 * contact page) show it: a progress bar while it runs, its error if it failed, "Export data" / "Export again", and
 * the finished file's download.
 */
export function ExportControls({
  current,
  starting,
  preparing,
  onStart,
  onDownload,
}: {
  current: DataExport | null;
  starting: boolean;
  /** What the progress bar says while the export runs. */
  preparing: string;
  onStart: () => Promise<unknown>;
  onDownload: (exportId: string) => Promise<unknown>;
}) {
  const running = current?.status === "queued" || current?.status === "running";
  return (
    <>
      {running && current && (
        <div>
          <div className="flex justify-between text-xs text-slate-600">
            <span>{preparing}</span>
            <span>{current.progress}%</span>
          </div>
          <div
            role="progressbar"
            aria-label="Export progress"
            aria-valuenow={current.progress}
            aria-valuemin={0}
            aria-valuemax={100}
            className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
          >
            <div className="h-full bg-indigo-600 transition-all" style={{ width: `${current.progress}%` }} />
          </div>
        </div>
      )}
      {current?.status === "failed" && <p className="text-sm text-red-700">{current.error}</p>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          pending={starting}
          disabled={running}
          onClick={async () => {
            try {
              await onStart();
            } catch (error) {
              toastError(error, "Failed to start the export");
            }
          }}
        >
          {current?.status === "done" ? "Export again" : "Export data"}
        </Button>
        {current?.status === "done" && (
          <Button
            onClick={async () => {
              try {
                await onDownload(current.id);
              } catch (error) {
                toastError(error, "Failed to download the export");
              }
            }}
          >
            <Download className="size-4" aria-hidden="true" /> Download ({size(current.size_bytes)})
          </Button>
        )}
      </div>
    </>
  );
}
