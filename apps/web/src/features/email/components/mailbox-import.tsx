import type { Mailbox, MailboxStatus } from "@cove/contract/mailboxes.ts";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { type MailboxAction, useMailboxAction, useMailboxes, useRemoveMailbox } from "../api/mailboxes.api.ts";
import { MailboxForm } from "./mailbox-form.tsx";

const count = new Intl.NumberFormat("en-US");

const STATUS_TEXT: Record<MailboxStatus, string> = {
  importing: "Importing",
  watching: "Checking for new mail every minute",
  paused: "Paused",
  cancelled: "Cancelled",
};

/** "About 3 minutes left": rounded as people say it. */
export function timeLeft(seconds: number): string {
  if (seconds < 60) return "Less than a minute left";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${minutes} minute${minutes === 1 ? "" : "s"} left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `About ${hours} hour${hours === 1 ? "" : "s"}${rest ? ` ${rest} min` : ""} left`;
}

function ImportProgress({ mailbox }: { mailbox: Mailbox }) {
  const p = mailbox.progress;
  const done = p.imported + p.skipped + p.failed;
  const percent = p.total > 0 ? Math.min(100, Math.floor((done / p.total) * 100)) : 100;
  return (
    <div className="space-y-1.5">
      <div
        role="progressbar"
        aria-label={`Import of ${mailbox.user}`}
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={done}
        aria-valuetext={`${count.format(done)} of ${count.format(p.total)} messages`}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="flex flex-wrap justify-between gap-x-4 text-xs text-slate-600">
        <span>
          {count.format(done)} of {count.format(p.total)} messages · {count.format(p.imported)} imported ·{" "}
          {count.format(p.skipped)} skipped · {count.format(p.failed)} failed
        </span>
        {mailbox.status === "importing" && p.eta_seconds !== null && (
          <span>
            {timeLeft(p.eta_seconds)}
            {p.per_second !== null && ` (${p.per_second} a second)`}
          </span>
        )}
      </p>
    </div>
  );
}

function MailboxItem({ mailbox }: { mailbox: Mailbox }) {
  const action = useMailboxAction();
  const remove = useRemoveMailbox();
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<"cancel" | "remove" | null>(null);
  const run = (what: MailboxAction) =>
    action
      .mutateAsync({ id: mailbox.id, action: what })
      .catch((error: unknown) => toastError(error, "That did not work"));

  if (editing) return <MailboxForm mailbox={mailbox} onDone={() => setEditing(false)} />;
  const live = mailbox.status !== "cancelled";
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-900">
            {mailbox.user} · {mailbox.folder}
          </p>
          <p className="truncate text-xs text-slate-500">
            {mailbox.host}:{mailbox.port}
            {mailbox.tls ? " (TLS)" : ""} · {STATUS_TEXT[mailbox.status]}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {(mailbox.status === "importing" || mailbox.status === "watching") && (
            <Button size="sm" variant="secondary" onClick={() => run("pause")} disabled={action.isPending}>
              Pause
            </Button>
          )}
          {mailbox.status === "paused" && (
            <Button size="sm" variant="secondary" onClick={() => run("resume")} disabled={action.isPending}>
              Resume
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
            {live ? "Change sign-in" : "Connect again"}
          </Button>
          {live && (
            <Button size="sm" variant="ghost" onClick={() => setConfirm("cancel")}>
              Cancel import
            </Button>
          )}
          {!live && (
            <Button size="sm" variant="ghost" onClick={() => setConfirm("remove")}>
              Remove
            </Button>
          )}
        </div>
      </div>
      <ImportProgress mailbox={mailbox} />
      {mailbox.last_error && <Alert>{mailbox.last_error}</Alert>}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === "remove" ? "Remove this mailbox?" : "Cancel this import?"}
        description={
          confirm === "remove"
            ? "Its progress is forgotten. The tickets it made stay."
            : "Cove stops reading this mailbox and forgets its password. The tickets already made stay."
        }
        confirmLabel={confirm === "remove" ? "Remove" : "Cancel import"}
        cancelLabel="Keep"
        tone="danger"
        pending={action.isPending || remove.isPending}
        onConfirm={() => {
          const done =
            confirm === "remove"
              ? remove.mutateAsync(mailbox.id).then(() => toast.success("Mailbox removed"))
              : action.mutateAsync({ id: mailbox.id, action: "cancel" });
          done.catch((error: unknown) => toastError(error, "That did not work")).finally(() => setConfirm(null));
        }}
      />
    </div>
  );
}

/**
 * Settings > Email Settings: mailboxes imported over IMAP. Their past mail becomes tickets (replies join their
 * ticket) with a progress bar, then new mail is fetched every minute.
 */
export function MailboxImport() {
  const id = useId();
  const mailboxes = useMailboxes();
  const [adding, setAdding] = useState(false);
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
            Import a mailbox
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Connect Gmail, Outlook or any IMAP mailbox: its mail becomes tickets, replies join their ticket, and new
            mail keeps coming in. Nothing in the mailbox is changed or marked read.
          </p>
        </div>
        {!adding && (
          <Button size="sm" onClick={() => setAdding(true)}>
            Connect a mailbox
          </Button>
        )}
      </div>
      {adding && <MailboxForm onDone={() => setAdding(false)} />}
      {mailboxes.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> Loading...
        </p>
      ) : mailboxes.isError ? (
        <Alert>Failed to load the mailboxes</Alert>
      ) : mailboxes.data.mailboxes.length === 0 ? (
        !adding && <p className="text-sm text-slate-500">No mailbox connected.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {mailboxes.data.mailboxes.map((m) => (
            <li key={m.id} className="py-4 first:pt-0 last:pb-0">
              <MailboxItem mailbox={m} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
