import type { Attachment } from "@cove/contract/attachments.ts";
import type { CommentEmailStatus, TicketEmail } from "@cove/contract/email.ts";
import type { Comment, Ticket } from "@cove/contract/tickets.ts";
import { clsx } from "clsx";
import { Lock, Mail, MailCheck, MailWarning, UserRound } from "lucide-react";
import { OriginalEmailButton, useTicketEmails } from "../../email/index.ts";
import { TicketAttachments } from "./ticket-attachments.tsx";
import { formatDateTime } from "./ticket-format.ts";

/** Everything here is text people typed: rendered as text, with their line breaks kept. */
const typedText = "text-sm leading-relaxed whitespace-pre-wrap break-words text-slate-800";

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="text-xs text-slate-500">
      {formatDateTime(iso)}
    </time>
  );
}

export function TicketConversation({ ticket }: { ticket: Ticket }) {
  const emails = useTicketEmails(ticket.id).data?.emails ?? [];
  const htmlOf = (commentId: string | null) => emails.find((e) => e.comment_id === commentId && e.has_html);
  const firstEmail = htmlOf(null);
  return (
    <div className="space-y-4">
      <article aria-label="Description" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-slate-100 pb-4">
          <div className="flex min-w-0 items-center gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500">
              <UserRound className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900">{ticket.requester_name}</p>
              <p className="flex min-w-0 items-center gap-1 text-xs text-slate-500">
                <Mail className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="truncate">{ticket.requester_email}</span>
              </p>
            </div>
          </div>
          <p className="text-xs text-slate-500">
            Created <When iso={ticket.created_at} />
          </p>
        </header>
        <p className={clsx(typedText, "pt-4")}>{ticket.description}</p>
        {firstEmail && (
          <p className="pt-2">
            <OriginalEmailButton email={firstEmail} />
          </p>
        )}
        <TicketAttachments ticketId={ticket.id} files={filesOf(ticket, null)} />
      </article>

      <section aria-labelledby="comments-heading" className="space-y-3">
        <h2 id="comments-heading" className="text-sm font-semibold text-slate-900">
          Replies and notes ({ticket.comments.length})
        </h2>
        {ticket.comments.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">
            No replies yet.
          </p>
        ) : (
          <ol className="space-y-3">
            {ticket.comments.map((comment) => (
              <li key={comment.id}>
                <CommentItem
                  comment={comment}
                  files={filesOf(ticket, comment.id)}
                  ticketId={ticket.id}
                  email={htmlOf(comment.id)}
                />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

const EMAIL_STATUS = {
  sending: { label: "Sending by email", icon: Mail, classes: "bg-slate-100 text-slate-700 ring-slate-500/20" },
  sent: { label: "Emailed", icon: MailCheck, classes: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  failed: { label: "Email failed", icon: MailWarning, classes: "bg-red-50 text-red-800 ring-red-600/30" },
} as const;

/** How the email of a public reply to the requester stands (the email channel). */
function EmailStatus({ status }: { status: CommentEmailStatus }) {
  const { label, icon: Icon, classes } = EMAIL_STATUS[status];
  return (
    <span
      className={clsx(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        classes,
      )}
    >
      <Icon className="size-3" aria-hidden="true" />
      {label}
    </span>
  );
}

/** The files of the ticket's first message (commentId null) or of one reply. */
const filesOf = (ticket: Ticket, commentId: string | null) =>
  (ticket.attachments ?? []).filter((a) => a.comment_id === commentId);

interface CommentItemProps {
  comment: Comment;
  files: Attachment[];
  ticketId: string;
  /** The email this reply came in, when its HTML was kept. */
  email?: TicketEmail | undefined;
}

function CommentItem({ comment, files, ticketId, email }: CommentItemProps) {
  const internal = !comment.is_public;
  return (
    <article
      aria-label={`${internal ? "Internal note" : "Reply"} from ${comment.author_name}`}
      className={clsx(
        "rounded-lg border p-4 shadow-sm",
        internal ? "border-amber-200 bg-amber-50" : "border-slate-200 bg-white",
      )}
    >
      <header className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-sm font-medium text-slate-900">{comment.author_name}</span>
        {internal && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-600/30 ring-inset">
            <Lock className="size-3" aria-hidden="true" />
            Internal
          </span>
        )}
        <When iso={comment.created_at} />
        {comment.email_status && <EmailStatus status={comment.email_status} />}
        {email && <OriginalEmailButton email={email} />}
      </header>
      <p className={typedText}>{comment.body}</p>
      <TicketAttachments ticketId={ticketId} files={files} />
    </article>
  );
}
