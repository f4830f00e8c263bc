import { attachmentsApi } from "@cove/contract/attachments.ts";
import { routePath } from "@cove/contract/routes.ts";
import { createCommentBody } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { useEffect, useId } from "react";
import { AttachFilesButton, UploadList, useFileUploads } from "../../../components/file-uploads.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { getSession } from "../../../lib/session-storage.ts";
import { CannedReplyPicker } from "../../automation/index.ts";
import { useAddComment } from "../api/tickets.mutations.ts";
import { useTicket } from "../api/tickets.queries.ts";

interface ReplyFormProps {
  ticketId: string;
  onClose: () => void;
  /** Called as the member types, so teammates on the ticket see that they are replying. */
  onTyping?: () => void;
}

export function ReplyForm({ ticketId, onClose, onTyping }: ReplyFormProps) {
  const id = useId();
  const addComment = useAddComment(ticketId);
  // The contract's rule: the text must not be blank once trimmed, so a reply of only spaces is never sent.
  const {
    register,
    handleSubmit,
    watch,
    setFocus,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useContractForm(createCommentBody, { body: "", is_public: true });
  const isPublic = watch("is_public");
  const files = useFileUploads({
    url: routePath(attachmentsApi.uploadForReply, { id: ticketId }),
    token: getSession()?.token,
  });
  const ticket = useTicket(ticketId).data;
  // What a canned reply's placeholders are filled with.
  const placeholders: Record<string, string> = ticket
    ? {
        "ticket.requester_name": ticket.requester_name,
        "ticket.requester_email": ticket.requester_email,
        "ticket.subject": ticket.subject,
        "ticket.ticket_number": String(ticket.ticket_number),
        "ticket.status": ticket.status,
        "ticket.priority": ticket.priority,
      }
    : {};
  // Opening the form is asking to write: put the cursor there.
  useEffect(() => setFocus("body"), [setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const ids = files.ids;
      await addComment.mutateAsync({ ...values, ...(ids.length > 0 ? { attachment_ids: ids } : {}) });
      onClose();
    } catch {
      // The mutation has shown the spec's toast; the text stays so nothing typed is lost.
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Send a reply"
      {...files.dropProps}
      className={clsx(
        "space-y-3 rounded-lg border p-4 shadow-sm",
        isPublic ? "border-slate-200 bg-white" : "border-amber-200 bg-amber-50",
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={`${id}-body`} className="block text-sm font-medium text-slate-700">
          Reply
        </label>
        <CannedReplyPicker
          values={placeholders}
          onInsert={(text) => {
            const current = getValues("body").trimEnd();
            setValue("body", current ? `${current}\n\n${text}` : text);
            setFocus("body");
          }}
        />
      </div>
      <textarea
        id={`${id}-body`}
        rows={6}
        aria-invalid={errors.body ? true : undefined}
        aria-describedby={errors.body ? `${id}-error` : undefined}
        placeholder={isPublic ? "Write your reply…" : "Only your team sees this note…"}
        className={clsx(inputClasses, "resize-y")}
        onPaste={files.onPaste}
        {...register("body", { onChange: () => onTyping?.() })}
      />
      <UploadList files={files} label="Files of this reply" />
      {errors.body && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {errors.body.message}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300 accent-indigo-600"
              {...register("is_public")}
            />
            Public reply
          </label>
          {!isPublic && <span className="text-xs text-amber-800">Internal note: only your team sees it.</span>}
          <AttachFilesButton files={files} />
        </div>
        {/* Not shrunk by the long upload hint beside it: "Send Reply" stays on one line. */}
        <FormActions className="shrink-0" onCancel={onClose} pending={isSubmitting} disabled={files.uploading}>
          {isSubmitting ? "Sending…" : "Send Reply"}
        </FormActions>
      </div>
    </form>
  );
}
