import type { AttachmentLimits } from "@cove/contract/attachment-limits.ts";
import type { Attachment } from "@cove/contract/attachments.ts";
import type { CommentEmailStatus } from "@cove/contract/email.ts";
import type { TicketRating } from "@cove/contract/tickets.ts";
import type { SQL, SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../platform/db.ts";

/** Where a pending upload goes: the ticket, its comment (null: the first message), and whose upload it was. */
export interface UploadTarget {
  ticketId: string;
  commentId: string | null;
  contactId?: string | null;
  userId?: string | null;
}

/**
 * What a ticket shows and does that other modules own: its files (attachments), the delivery of its emailed replies
 * (email) and its customer's rating (csat). Those modules build on tickets, so tickets cannot import them
 * (scripts/check-boundaries.mjs, no cycles): app.ts fills these in once, at start (connectTicketParts). Until then
 * each one says it is missing rather than answer as if the ticket had none.
 */
export interface TicketParts {
  /** A scalar subquery: the ticket's attached files, oldest first, as a JSON array. */
  attachments: (orgId: SQLWrapper, ticketId: SQLWrapper) => SQL<Attachment[]>;
  /** Attaches the uploads named by ids (pending, the uploader's) to the ticket, in the caller's transaction. */
  attachPending: (
    db: Queryable,
    orgId: string,
    target: UploadTarget,
    ids: string[],
    limits: AttachmentLimits,
  ) => Promise<void>;
  /** A scalar subquery: how the latest email of a public reply stands (null: none sent). */
  emailStatus: (orgId: SQLWrapper, commentId: SQLWrapper) => SQL<CommentEmailStatus | null>;
  /** A scalar subquery: the customer's rating as JSON (rated_at as PostgreSQL writes a time), null when none. */
  rating: (orgId: SQLWrapper, ticketId: SQLWrapper) => SQL<TicketRating | null>;
}

const missing = (part: keyof TicketParts) => () => {
  throw new Error(`ticket part "${part}" is not connected (app.ts connectTicketParts)`);
};

export const ticketParts: TicketParts = {
  attachments: missing("attachments"),
  attachPending: missing("attachPending"),
  emailStatus: missing("emailStatus"),
  rating: missing("rating"),
};

export function connectTicketParts(parts: TicketParts): void {
  Object.assign(ticketParts, parts);
}
