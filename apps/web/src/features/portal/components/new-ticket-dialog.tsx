import { attachmentsApi } from "@cove/contract/attachments.ts";
import { createPortalTicketBody } from "@cove/contract/portal.ts";
import { routePath } from "@cove/contract/routes.ts";
import { toast } from "sonner";
import { useFileUploads } from "../../../components/file-uploads.tsx";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastErrorWithReason } from "../../../lib/toast-error.ts";
import { NewTicketDetails } from "../../tickets/index.ts";
import { useCreateMyTicket } from "../api/portal.queries.ts";
import { usePortal } from "../api/portal-context.ts";
import { brandStyle } from "./portal-brand.ts";

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
  const files = useFileUploads({ url: routePath(attachmentsApi.portalUpload, undefined), token: portal.token });
  const {
    field,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useContractForm(createPortalTicketBody, { subject: "", description: "", priority: "normal" });

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
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={isSubmitting}
      title="Create Support Ticket"
      width="max-w-lg"
      style={brandStyle(portal.organization.branding)}
    >
      <form
        onSubmit={onSubmit}
        noValidate
        className="mt-4 space-y-4"
        aria-label="Create Support Ticket"
        {...files.dropProps}
      >
        <TextField label="Subject" maxLength={250} {...field("subject")} />
        <NewTicketDetails
          id="portal-ticket-description"
          rows={6}
          files={files}
          description={field("description")}
          priority={field("priority")}
        />
        <FormActions
          onCancel="close"
          variant="accent"
          pending={isSubmitting}
          disabled={files.uploading}
          className="pt-2"
        >
          Submit Ticket
        </FormActions>
      </form>
    </FormDialog>
  );
}
