import { type Attachment, attachmentsApi } from "@cove/contract/attachments.ts";
import { type CustomerComment, type CustomerTicketDetail, portalApi, portalReplyBody } from "@cove/contract/portal.ts";
import { routePath } from "@cove/contract/routes.ts";
import { clsx } from "clsx";
import { ArrowLeft, FileQuestion } from "lucide-react";
import { useCallback, useId } from "react";
import { AttachmentList, type FetchFile } from "../../../components/attachment-list.tsx";
import { AttachFilesButton, UploadList, useFileUploads } from "../../../components/file-uploads.tsx";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Loading } from "../../../components/ui/load-states.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { fetchFile } from "../../../lib/uploads.ts";
import { formatDateTime, PriorityBadge, StatusBadge } from "../../tickets/index.ts";
import { useMyTicket, useRateMyTicket, useReplyToMyTicket } from "../api/portal.queries.ts";
import { usePortal } from "../api/portal-context.ts";
import { accentButton } from "./portal-brand.ts";
import { usePortalFollow } from "./portal-live.tsx";
import { SatisfactionForm } from "./satisfaction-form.tsx";

/** One of the customer's tickets: its public conversation (kept live), a reply box, and the survey once solved. */
export function TicketView({ id, onBack }: { id: string; onBack: () => void }) {
  const query = useMyTicket(id);
  usePortalFollow([id]);
  const back = (
    <Button variant="ghost" size="sm" className="-ml-3" onClick={onBack}>
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to My Tickets
    </Button>
  );

  if (query.isPending) {
    return <Loading label="Loading ticket" className="py-12 text-[var(--portal-accent-text,#4f46e5)]" />;
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <FileQuestion className="size-8 text-slate-400" aria-hidden="true" />
          <p className="font-medium text-slate-900">Ticket not found</p>
          {back}
        </div>
      );
    }
    return (
      <div className="space-y-3">
        {back}
        <Alert>
          <p className="font-semibold">Error loading ticket</p>
          <p>{query.error.message}</p>
        </Alert>
      </div>
    );
  }
  const ticket = query.data;
  return (
    <article aria-labelledby="portal-ticket-title" className="space-y-5">
      {back}
      <header className="space-y-2">
        <h2 id="portal-ticket-title" className="text-xl font-semibold break-words text-slate-900">
          <span className="text-slate-500">#{ticket.ticket_number}</span> {ticket.subject}
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <StatusBadge status={ticket.status} />
          <PriorityBadge priority={ticket.priority} />
          <span>Created {formatDateTime(ticket.created_at)}</span>
          {/* Items of a wrapping row: a "·" before this one began the next line when the row wrapped (a phone). */}
          <span>Updated {formatDateTime(ticket.updated_at)}</span>
        </div>
      </header>
      <Conversation ticket={ticket} />
      {ticket.satisfaction && <Rating ticket={ticket} />}
      <ReplyBox ticket={ticket} />
    </article>
  );
}

interface MessageProps {
  author: string;
  mine: boolean;
  at: string;
  body: string;
  files: Attachment[];
  fetchOne: FetchFile;
}

function Message({ author, mine, at, body, files, fetchOne }: MessageProps) {
  return (
    <li className={clsx("flex", mine ? "justify-end" : "justify-start")}>
      <div
        className={clsx(
          "max-w-[min(40rem,90%)] rounded-lg border px-4 py-3",
          mine ? "border-slate-200 bg-slate-100" : "border-slate-200 bg-white shadow-sm",
        )}
      >
        <p className="text-xs text-slate-500">
          <span className="font-medium text-slate-700">{mine ? "You" : author}</span> · {formatDateTime(at)}
        </p>
        <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">{body}</p>
        <AttachmentList files={files} fetchFile={fetchOne} />
      </div>
    </li>
  );
}

function Conversation({ ticket }: { ticket: CustomerTicketDetail }) {
  const { customer, token } = usePortal();
  // The files are the customer's to read with their own token (never the staff session's).
  const fetchOne = useCallback(
    (file: Attachment) =>
      fetchFile(routePath(portalApi.file, { id: ticket.id, attachmentId: file.id }), token, file.filename),
    [ticket.id, token],
  );
  const filesOf = (commentId: string | null) => ticket.attachments.filter((a) => a.comment_id === commentId);
  const item = (c: CustomerComment) => (
    <Message
      key={c.id}
      author={c.author_name}
      mine={c.from_customer}
      at={c.created_at}
      body={c.body}
      files={filesOf(c.id)}
      fetchOne={fetchOne}
    />
  );
  return (
    <ol aria-label="Conversation" className="space-y-3">
      <Message
        author={customer.name}
        mine
        at={ticket.created_at}
        body={ticket.description}
        files={filesOf(null)}
        fetchOne={fetchOne}
      />
      {ticket.comments.map(item)}
    </ol>
  );
}

function Rating({ ticket }: { ticket: CustomerTicketDetail }) {
  const rate = useRateMyTicket(ticket.id);
  if (!ticket.satisfaction) return null;
  return <SatisfactionForm satisfaction={ticket.satisfaction} onRate={(body) => rate.mutateAsync(body)} />;
}

/** The customer's reply, checked with the contract's rule for a comment; its files go alongside. */
const replyForm = portalReplyBody.pick({ body: true });

function ReplyBox({ ticket }: { ticket: CustomerTicketDetail }) {
  const id = useId();
  const reply = useReplyToMyTicket(ticket.id);
  const { token } = usePortal();
  const files = useFileUploads({ url: routePath(attachmentsApi.portalUpload, undefined), token });
  const {
    register,
    watch,
    reset,
    submit,
    formState: { errors },
  } = useContractForm(replyForm, { body: "" });
  const body = watch("body");
  const bodyError = errors.body?.message;
  if (ticket.status === "closed") {
    return (
      <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
        This ticket is closed. If you need more help, submit a new ticket.
      </p>
    );
  }
  const send = submit(
    ["body"],
    async (values) => {
      await reply.mutateAsync({ ...values, ...(files.ids.length > 0 ? { attachment_ids: files.ids } : {}) });
      reset();
      files.clear();
    },
    (error) => toastError(error, "Failed to add comment. Please try again."),
  );
  return (
    <form
      aria-label="Reply"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      {...files.dropProps}
      onSubmit={send}
    >
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Your reply
      </label>
      <textarea
        id={id}
        rows={4}
        onPaste={files.onPaste}
        className={`${inputClasses} resize-y`}
        aria-invalid={bodyError ? true : undefined}
        aria-describedby={bodyError ? `${id}-error` : undefined}
        {...register("body")}
      />
      {bodyError && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {bodyError}
        </p>
      )}
      <UploadList files={files} label="Files of this reply" />
      <AttachFilesButton files={files} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-slate-500">
          {ticket.status === "solved" ? "This ticket is solved: replying opens it again." : "The team is told at once."}
        </p>
        <button
          type="submit"
          className={accentButton}
          disabled={reply.isPending || files.uploading || body.trim() === ""}
        >
          {reply.isPending && <Spinner className="size-4" />}
          Send reply
        </button>
      </div>
    </form>
  );
}
