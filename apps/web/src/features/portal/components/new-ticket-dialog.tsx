import { createPortalTicketBody } from "@cove/contract/portal.ts";
import { TICKET_PRIORITIES } from "@cove/contract/tickets.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { AttachFilesButton, UploadList, useFileUploads } from "../../../components/file-uploads.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { TextAreaField, TextField } from "../../../components/ui/text-field.tsx";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastErrorWithReason } from "../../../lib/toast-error.ts";
import { PRIORITY_LABELS } from "../../tickets/index.ts";
import { useCreateMyTicket } from "../api/portal.queries.ts";
import { usePortal } from "../api/portal-context.ts";
import { accentButton, brandStyle } from "./portal-brand.ts";

const priorityOptions = TICKET_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

/** Spec: the Create Support Ticket modal (subject and description required). */
export function NewTicketDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (id: string) => void;
}) {
  const portal = usePortal();
  const create = useCreateMyTicket();
  const files = useFileUploads({ url: "/api/portal/attachments", token: portal.token });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(createPortalTicketBody),
    defaultValues: { subject: "", description: "", priority: "normal" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const ticket = await create.mutateAsync({
        ...values,
        ...(files.ids.length > 0 ? { attachment_ids: files.ids } : {}),
      });
      toast.success(`Ticket #${ticket.ticket_number} submitted. We will get back to you soon.`);
      reset();
      files.clear();
      onOpenChange(false);
      onCreated(ticket.id);
    } catch (error) {
      applyFieldErrors(error, setError, ["subject", "description", "priority"]);
      toastErrorWithReason(error, (reason) => `Failed to create ticket: ${reason}`, "Something went wrong.");
    }
  });

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          style={brandStyle(portal.organization.branding)}
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">Create Support Ticket</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" className="-mt-2 -mr-2" aria-label="Close">
                <X className="size-5" aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>
          <form
            onSubmit={onSubmit}
            noValidate
            className="mt-4 space-y-4"
            aria-label="Create Support Ticket"
            {...files.dropProps}
          >
            <TextField label="Subject" maxLength={250} error={errors.subject?.message} {...register("subject")} />
            <TextAreaField
              id="portal-ticket-description"
              label="Description"
              error={errors.description?.message}
              rows={6}
              className="resize-y"
              onPaste={files.onPaste}
              {...register("description")}
            />
            <UploadList files={files} label="Files of this ticket" />
            <AttachFilesButton files={files} />
            <div className="sm:max-w-xs">
              <SelectField label="Priority" options={priorityOptions} {...register("priority")} />
            </div>
            <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={isSubmitting}>
                  Cancel
                </Button>
              </Dialog.Close>
              <button type="submit" className={accentButton} disabled={isSubmitting || files.uploading}>
                {isSubmitting && <Spinner className="size-4" />}
                Submit Ticket
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
