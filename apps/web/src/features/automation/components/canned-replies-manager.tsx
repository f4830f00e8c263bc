import { type CannedReply, cannedReplyBody } from "@cove/contract/canned-replies.ts";
import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextAreaField, TextField } from "../../../components/ui/text-field.tsx";
import { PANEL, TitledSection } from "../../../components/ui/titled-section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useCannedReplies, useDeleteCannedReply, useSaveCannedReply } from "../api/automation.api.ts";

const EMPTY = { title: "", body: "" };

/** Canned replies, kept by admins: a list with edit and delete, and a form that adds or changes one. */
/** readOnly: an agent reads the list; adding, editing and deleting are for admins. */
export function CannedRepliesManager({ readOnly = false }: { readOnly?: boolean }) {
  const canned = useCannedReplies();
  const save = useSaveCannedReply();
  const remove = useDeleteCannedReply();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<CannedReply | null>(null);
  const form = useContractForm(cannedReplyBody, EMPTY);
  const errors = form.formState.errors;
  const bodyError = errors.body?.message;

  const reset = () => {
    setEditing(null);
    form.reset(EMPTY);
  };

  const submit = form.submit(
    ["title", "body"],
    async (body) => {
      await save.mutateAsync({ id: editing, body });
      toast.success(editing ? "Canned reply saved" : "Canned reply added");
      reset();
    },
    (err) => form.setError("root", { message: errorText(err, "The canned reply could not be saved.") }),
  );

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(`Canned reply "${deleting.title}" deleted`);
      if (editing === deleting.id) reset();
      setDeleting(null);
    } catch (err) {
      toastError(err, "The canned reply could not be deleted.");
    }
  }

  const list = canned.data?.canned_replies ?? [];
  return (
    <TitledSection
      titleId="canned-heading"
      title="Canned replies"
      className={PANEL}
      titleClassName="text-base font-semibold text-slate-900"
    >
      <p className="mt-1 text-sm text-slate-600">
        Saved replies your team inserts from the reply box. Placeholders such as {"{{ticket.requester_name}}"} and{" "}
        {"{{ticket.subject}}"} are filled from the ticket.
      </p>
      {canned.isError && <Alert>Failed to load the canned replies</Alert>}
      {list.length > 0 && (
        <ul aria-label="Canned replies" className="mt-3 divide-y divide-slate-100">
          {list.map((c) => (
            <li key={c.id} aria-label={c.title} className="flex items-start justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-slate-900">{c.title}</p>
                <p className="line-clamp-2 text-sm break-words whitespace-pre-wrap text-slate-600">{c.body}</p>
              </div>
              {!readOnly && (
                <div className="flex shrink-0 gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Edit ${c.title}`}
                    onClick={() => {
                      setEditing(c.id);
                      form.reset({ title: c.title, body: c.body });
                    }}
                  >
                    <Pencil className="size-4" aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={`Delete ${c.title}`} onClick={() => setDeleting(c)}>
                    <Trash2 className="size-4 text-red-600" aria-hidden="true" />
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {readOnly && list.length === 0 && !canned.isError && (
        <p className="mt-3 text-sm text-slate-500">No canned replies yet.</p>
      )}
      {!readOnly && (
        <form
          onSubmit={submit}
          noValidate
          aria-label={editing ? "Edit canned reply" : "Add a canned reply"}
          className="mt-3 space-y-3"
        >
          <TextField label="Title" maxLength={120} error={errors.title?.message} {...form.register("title")} />
          <TextAreaField id="canned-body" label="Reply text" error={bodyError} rows={3} {...form.register("body")} />
          {errors.root?.message && <Alert>{errors.root.message}</Alert>}
          <FormActions onCancel={editing ? reset : undefined} variant="secondary" pending={save.isPending}>
            {editing ? "Save canned reply" : "Add canned reply"}
          </FormActions>
        </form>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete the canned reply "${deleting?.title ?? ""}"?`}
        confirmLabel="Delete"
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </TitledSection>
  );
}
