import { type SQLWrapper, sql } from "drizzle-orm";
import { emailMessages } from "../../db/schema/email.ts";

// On its own so the ticket's comment list can use it without importing the email queries, which read tickets.
/** A scalar subquery for a ticket's comment list: how the latest email of a public reply stands (null: none sent). */
export const commentEmailStatus = (orgId: SQLWrapper, commentId: SQLWrapper) =>
  sql`(select m.status from ${emailMessages} m
       where m.organization_id = ${orgId} and m.comment_id = ${commentId} and m.direction = 'out'
       order by m.created_at desc limit 1)`;
