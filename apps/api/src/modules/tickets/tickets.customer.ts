import type { CustomerComment } from "@cove/contract/portal.ts";
import type { TicketPriority, TicketStatus } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import { ticketComments, tickets } from "../../db/schema/tickets.ts";
import { after, cursorText, decodeCursor, encodeCursor, type SortKey } from "../../platform/cursor.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";

/**
 * A customer's own tickets as the portal shows them: never their internal notes or activity. Each query filters by
 * the contact itself besides the contact role's policies; they run in the caller's (the contact's) transaction.
 */
export interface CustomerTicketRow {
  id: string;
  ticket_number: number;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  created_at: Date | string;
  updated_at: Date | string;
  comment_count: number;
}

/** The customer's tickets' columns, with their public replies counted (internal notes never are). */
const customerTicketColumns = sql`t.id, t.ticket_number, t.subject, t.description, t.status, t.priority, t.created_at,
  t.updated_at, (select count(*) from ${ticketComments} c
                 where c.organization_id = t.organization_id and c.ticket_id = t.id and c.is_public)::int as comment_count`;

const CUSTOMER_ORDER: SortKey[] = [
  { column: sql`t.updated_at`, type: "timestamptz", desc: true },
  { column: sql`t.ticket_number`, type: "integer", desc: true },
];

/**
 * One page of the contact's tickets, most recently changed first (by offset, or after a cursor: platform/cursor.ts),
 * how many they have in all, and the cursor of the next page.
 */
export async function listCustomerTickets(
  db: Queryable,
  orgId: string,
  contactId: string,
  page: { limit: number; offset: number; cursor?: string | undefined },
): Promise<{ rows: (CustomerTicketRow & { cursor_updated_at: string })[]; total: number; nextCursor: string | null }> {
  const mine = sql`t.organization_id = ${orgId} and t.contact_id = ${contactId}`;
  const start = page.cursor
    ? sql` and ${after(CUSTOMER_ORDER, decodeCursor("my-tickets", page.cursor, CUSTOMER_ORDER))}`
    : sql``;
  const rows = await queryRows<CustomerTicketRow & { cursor_updated_at: string }>(
    db,
    sql`select ${customerTicketColumns}, ${cursorText(sql`t.updated_at`)} as cursor_updated_at
          from ${tickets} t where ${mine}${start}
          order by t.updated_at desc, t.ticket_number desc limit ${page.limit} offset ${page.cursor ? 0 : page.offset}`,
  );
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${tickets} t where ${mine}`);
  const last = rows.at(-1);
  const nextCursor =
    rows.length === page.limit && last
      ? encodeCursor("my-tickets", [last.cursor_updated_at, String(last.ticket_number)])
      : null;
  return { rows, total: count?.n ?? 0, nextCursor };
}

/** One of the contact's tickets, or null when it is not theirs (or not there). */
export async function customerTicket(
  db: Queryable,
  orgId: string,
  contactId: string,
  id: string,
): Promise<CustomerTicketRow | null> {
  const [row] = await queryRows<CustomerTicketRow>(
    db,
    sql`select ${customerTicketColumns} from ${tickets} t
        where t.organization_id = ${orgId} and t.contact_id = ${contactId} and t.id = ${id}`,
  );
  return row ?? null;
}

/** A ticket's public conversation, oldest first (the caller has checked the ticket is the customer's). */
export async function publicComments(db: Queryable, orgId: string, ticketId: string): Promise<CustomerComment[]> {
  const rows = await queryRows<{
    id: string;
    body: string;
    author_name: string;
    from_customer: boolean;
    created_at: Date | string;
  }>(
    db,
    sql`select c.id, c.body, c.author_name, c.author_contact_id is not null as from_customer, c.created_at
        from ${ticketComments} c
        where c.organization_id = ${orgId} and c.ticket_id = ${ticketId} and c.is_public
        order by c.created_at, c.id`,
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}
