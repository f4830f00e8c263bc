import {
  CONTACT_PAGE_SIZE,
  CONTACT_TICKETS_MAX,
  type Contact,
  type ContactAnswer,
  type ContactListAnswer,
  type ContactTicket,
  type contactListQuery,
  type TicketContactAnswer,
} from "@cove/contract/contacts.ts";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { after, cursorText, decodeCursor, encodeCursor, type SortKey } from "../../platform/cursor.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx, TenantCtx } from "../../platform/tenancy.ts";

/** The organization's customers for staff: searchable by name, email and company, each with their tickets. */

type Stamped<T> = Omit<T, "created_at" | "updated_at"> & { created_at: Date | string; updated_at: Date | string };

/**
 * What these views show of the records other modules own: a contact's tickets (tickets module) and chats (chat
 * module). Tickets and chat build on contacts (their requesters and visitors are contacts), so contacts imports
 * neither: app.ts passes their functions in.
 */
export interface ContactRecords {
  /** Scalar subqueries: how many tickets the contact has, and when the latest of them changed. */
  ticketCount: (orgId: SQL, contactId: SQL) => SQL;
  lastTicketAt: (orgId: SQL, contactId: SQL) => SQL;
  /** The contact's latest tickets, most recently changed first (but one, when except is given). */
  ticketsOf: (
    db: Queryable,
    orgId: string,
    contactId: string,
    except: string | null,
    limit: number,
  ) => Promise<Stamped<ContactTicket>[]>;
  /** The contact a ticket's requester is (null: none), or undefined when the organization has no such ticket. */
  contactOfTicket: (db: Queryable, orgId: string, ticketId: string) => Promise<string | null | undefined>;
  chatsOf: (ctx: Pick<TenantCtx, "orgId" | "db">, contactId: string) => Promise<ContactAnswer["chats"]>;
}

interface ContactRow {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  created_at: Date | string;
  ticket_count: number;
  last_ticket_at: Date | string | null;
  total?: number;
}

const iso = (v: Date | string) => new Date(v).toISOString();

const toContact = (r: ContactRow): Contact => ({
  id: r.id,
  name: r.name,
  email: r.email,
  company: r.company,
  created_at: iso(r.created_at),
  ticket_count: r.ticket_count,
  last_ticket_at: r.last_ticket_at === null ? null : iso(r.last_ticket_at),
});

/** A contact's columns with their ticket count and latest activity (read off the contact's tickets index). */
const contactColumns = (records: ContactRecords) => sql`c.id, c.name, c.email, c.company, c.created_at,
  ${records.ticketCount(sql`c.organization_id`, sql`c.id`)}::int as ticket_count,
  ${records.lastTicketAt(sql`c.organization_id`, sql`c.id`)} as last_ticket_at`;

/** A search's words as a LIKE pattern that matches them literally (% and _ typed by a person are not wildcards). */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listContacts(
  ctx: Ctx,
  records: ContactRecords,
  query: z.output<typeof contactListQuery>,
): Promise<ContactListAnswer> {
  const limit = CONTACT_PAGE_SIZE;
  const search = query.search?.trim();
  let filter: SQL = sql``;
  if (search) {
    const pattern = likePattern(search);
    filter = sql` and (c.name ilike ${pattern} or c.email ilike ${pattern} or c.company ilike ${pattern})`;
  }
  // A cursor narrows the rows to those after it, so the window count would miss the earlier ones: count apart then.
  const start = query.cursor
    ? sql` and ${after(CONTACT_ORDER, decodeCursor("contacts", query.cursor, CONTACT_ORDER))}`
    : sql``;
  const rows = await queryRows<ContactRow & { cursor_created_at: string }>(
    ctx.db,
    sql`select ${contactColumns(records)}, ${cursorText(sql`c.created_at`)} as cursor_created_at,
          ${query.cursor ? sql`null::int` : sql`count(*) over ()::int`} as total
        from contacts c
        where c.organization_id = ${ctx.orgId}${filter}${start}
        order by c.created_at desc, c.id desc
        limit ${limit} offset ${query.cursor ? 0 : (query.page - 1) * limit}`,
  );
  // Past the last page the window count is missing: count again so the pagination still says how many there are.
  let total = rows[0]?.total ?? 0;
  if (query.cursor || (rows.length === 0 && query.page > 1)) {
    const [n] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from contacts c where c.organization_id = ${ctx.orgId}${filter}`,
    );
    total = n?.n ?? 0;
  }
  const last = rows.at(-1);
  const next_cursor =
    rows.length === limit && last ? encodeCursor("contacts", [last.cursor_created_at, last.id]) : null;
  return {
    contacts: rows.map(toContact),
    pagination: { page: query.page, limit, total, pages: Math.ceil(total / limit), next_cursor },
  };
}

/** The list's order, newest first, as a cursor keeps it (platform/cursor.ts). */
const CONTACT_ORDER: SortKey[] = [
  { column: sql`c.created_at`, type: "timestamptz", desc: true },
  { column: sql`c.id`, type: "uuid", desc: true },
];

async function ticketsOf(
  ctx: Ctx,
  records: ContactRecords,
  contactId: string,
  except: string | null,
): Promise<ContactTicket[]> {
  const rows = await records.ticketsOf(ctx.db, ctx.orgId, contactId, except, CONTACT_TICKETS_MAX);
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }));
}

async function findContact(ctx: Ctx, records: ContactRecords, id: string): Promise<Contact | null> {
  const [row] = await queryRows<ContactRow>(
    ctx.db,
    sql`select ${contactColumns(records)} from contacts c where c.organization_id = ${ctx.orgId} and c.id = ${id}`,
  );
  return row ? toContact(row) : null;
}

export async function getContact(ctx: Ctx, records: ContactRecords, id: string): Promise<ContactAnswer> {
  const contact = await findContact(ctx, records, id);
  if (!contact) throw notFound("Contact");
  const tickets = await ticketsOf(ctx, records, id, null);
  return { contact, tickets, chats: await records.chatsOf(ctx, id) };
}

/** The requester of a ticket as a contact, with their other tickets: what the ticket's side panel shows. */
export async function contactOfTicket(
  ctx: Ctx,
  records: ContactRecords,
  ticketId: string,
): Promise<TicketContactAnswer> {
  const contactId = await records.contactOfTicket(ctx.db, ctx.orgId, ticketId);
  if (contactId === undefined) throw notFound("Ticket");
  const contact = contactId ? await findContact(ctx, records, contactId) : null;
  if (!contact) return { contact: null, other_tickets: [] };
  return { contact, other_tickets: await ticketsOf(ctx, records, contact.id, ticketId) };
}
