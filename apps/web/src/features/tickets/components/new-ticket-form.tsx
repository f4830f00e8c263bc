import { attachmentsApi } from "@cove/contract/attachments.ts";
import { routePath } from "@cove/contract/routes.ts";
import { createTicketBody } from "@cove/contract/tickets.ts";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { useFileUploads } from "../../../components/file-uploads.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { EmailField, TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { getSession } from "../../../lib/session-storage.ts";
import { toastErrorWithReason } from "../../../lib/toast-error.ts";
import { useCreateTicket } from "../api/tickets.mutations.ts";
import { NewTicketDetails } from "./new-ticket-details.tsx";

/** The contract's limit (createTicketBody: requiredText("Subject", 250)). */
const SUBJECT_MAX = 250;

export function NewTicketForm() {
  const navigate = useNavigate();
  const createTicket = useCreateTicket();
  // Uploaded as soon as chosen, dropped or pasted, before the ticket exists: they are the member's until it is created.
  const files = useFileUploads({ url: routePath(attachmentsApi.upload, undefined), token: getSession()?.token });
  const {
    field,
    handleSubmit,
    setError,
    watch,
    formState: { isSubmitting },
  } = useContractForm(createTicketBody, {
    requester_name: "",
    requester_email: "",
    subject: "",
    description: "",
    priority: "normal",
    tags: [],
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const ticket = await createTicket.mutateAsync({
        ...values,
        ...(files.ids.length > 0 ? { attachment_ids: files.ids } : {}),
      });
      toast.success(`Ticket #${ticket.ticket_number} created`);
      navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      applyFieldErrors(error, setError, ["requester_name", "requester_email", "subject", "description", "priority"]);
      toastErrorWithReason(error, (reason) => `Failed to create ticket: ${reason}`, "Something went wrong.");
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="New ticket"
      {...files.dropProps}
      className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Requester Name" autoComplete="off" {...field("requester_name")} />
        <EmailField label="Requester Email" autoComplete="off" {...field("requester_email")} />
      </div>
      {/* No maxLength: a pasted 600-character subject is not cut silently; the counter and the message say so. */}
      <TextField
        label="Subject"
        hint={`${[...watch("subject")].length} / ${SUBJECT_MAX} characters`}
        {...field("subject")}
      />
      <NewTicketDetails
        id="new-ticket-description"
        rows={8}
        files={files}
        description={field("description")}
        priority={field("priority")}
      />
      <FormActions
        onCancel={() => navigate("/tickets")}
        pending={isSubmitting}
        disabled={files.uploading}
        className="border-t border-slate-100 pt-5"
      >
        {isSubmitting ? "Creating…" : "Create Ticket"}
      </FormActions>
    </form>
  );
}
