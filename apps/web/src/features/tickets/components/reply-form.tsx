import { createCommentBody } from "@cove/contract/tickets.ts";
import { zodResolver } from "@hookform/resolvers/zod";
import { clsx } from "clsx";
import { Paperclip, X } from "lucide-react";
import { type ClipboardEvent, type DragEvent, useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../../components/ui/button.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { CannedReplyPicker } from "../../automation/index.ts";
import { uploadAttachment } from "../api/attachments.api.ts";
import { useAddComment } from "../api/tickets.mutations.ts";
import { useTicket } from "../api/tickets.queries.ts";

/** A file being uploaded for the reply, or uploaded (id), or refused (error). */
interface Upload {
  key: number;
  name: string;
  progress: number;
  id?: string;
  error?: string;
}

const MAX_FILES = 10;

interface ReplyFormProps {
  ticketId: string;
  onClose: () => void;
  /** Called as the member types, so teammates on the ticket see that they are replying. */
  onTyping?: () => void;
}

export function ReplyForm({ ticketId, onClose, onTyping }: ReplyFormProps) {
  const id = useId();
  const addComment = useAddComment(ticketId);
  const {
    register,
    handleSubmit,
    watch,
    setFocus,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm({
    // The contract's rule: the text must not be blank once trimmed, so a reply of only spaces is never sent.
    resolver: zodResolver(createCommentBody),
    defaultValues: { body: "", is_public: true },
  });
  const isPublic = watch("is_public");
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const uploading = uploads.some((u) => !u.id && !u.error);

  function addFiles(files: File[]) {
    for (const file of files.slice(0, Math.max(0, MAX_FILES - uploads.length))) {
      const key = nextKey.current++;
      const update = (change: Partial<Upload>) =>
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      uploadAttachment(ticketId, file, (progress) => update({ progress }))
        .then((attachment) => update({ id: attachment.id, progress: 1 }))
        .catch((error: unknown) => update({ error: error instanceof Error ? error.message : "Upload failed" }));
    }
  }
  const onDrop = (event: DragEvent) => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    addFiles([...event.dataTransfer.files]);
  };
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length > 0) addFiles([...event.clipboardData.files]);
  };
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
      const ids = uploads.flatMap((u) => (u.id ? [u.id] : []));
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
      onDragOver={(event) => event.preventDefault()}
      onDrop={onDrop}
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
        onPaste={onPaste}
        {...register("body", { onChange: () => onTyping?.() })}
      />
      {uploads.length > 0 && (
        <ul aria-label="Files of this reply" className="space-y-1">
          {uploads.map((u) => (
            <li key={u.key} className="flex items-center gap-2 text-xs text-slate-700">
              <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="max-w-64 truncate">{u.name}</span>
              {u.error ? (
                <span className="text-red-600">{u.error}</span>
              ) : u.id ? (
                <span className="text-emerald-700">Uploaded</span>
              ) : (
                <progress
                  value={u.progress}
                  max={1}
                  aria-label={`Uploading ${u.name}`}
                  className="h-1.5 w-24 accent-indigo-600"
                />
              )}
              <button
                type="button"
                aria-label={`Remove ${u.name}`}
                onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}
                className="text-slate-400 hover:text-slate-700"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
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
          <label className="flex cursor-pointer items-center gap-1 text-sm text-slate-700 hover:text-slate-900">
            <Paperclip className="size-4" aria-hidden="true" />
            Attach files
            <input
              type="file"
              multiple
              className="sr-only"
              onChange={(event) => {
                addFiles([...(event.target.files ?? [])]);
                event.target.value = "";
              }}
            />
          </label>
        </div>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" pending={isSubmitting} disabled={uploading}>
            {isSubmitting ? "Sending…" : "Send Reply"}
          </Button>
        </div>
      </div>
    </form>
  );
}
