import type { CommentEmailStatus } from "@cove/contract/email.ts";
import { type SQLWrapper, sql } from "drizzle-orm";
import { emailMessages } from "../../db/schema/email.ts";

// A ticket's comment list shows it: app.ts hands it to the tickets module (tickets.parts.ts), which cannot import email.
/** A scalar subquery for a ticket's comment list: how the latest email of a public reply stands (null: none sent). */
export const commentEmailStatus = (orgId: SQLWrapper, commentId: SQLWrapper) =>
  sql<CommentEmailStatus | null>`(select m.status from ${emailMessages} m
       where m.organization_id = ${orgId} and m.comment_id = ${commentId} and m.direction = 'out'
       order by m.created_at desc limit 1)`;
