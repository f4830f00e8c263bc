import {
  LIST_DESCRIPTION_CHARS,
  SEARCH_CANDIDATES,
  type TicketListAnswer,
  type ticketListQuery,
} from "@cove/contract/tickets.ts";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { tickets } from "../../db/schema/tickets.ts";
import {
  after,
  type CursorValue,
  cursorText,
  decodeCursor,
  encodeCursor,
  type SortKey,
} from "../../platform/cursor.ts";
import { filled } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { type OneRead, type Reader, readIn, type TenantCtx } from "../../platform/tenancy.ts";
import { type TicketRowRead, ticketSelectList, toTicketSummary } from "./tickets.queries.ts";
import { ticketNumberIn, toTsQuery } from "./tickets.search.ts";

type ListQuery = z.output<typeof ticketListQuery>;

/**
 * The list's filters, each defined once: the column of tickets it narrows, and the value the validated query asks
 * for (undefined: not filtered; null: the column is empty). The list's SQL, its count and the search
 * (ticket_search_candidates, migration 0043) are all built from this, and the cache key from the whole query, so a
 * new filter is a field of ticketListQuery and a line here (and an index, for speed). The counts come from
 * ticket_totals, or from ticket_tallies for the filters it alone keeps; both keep status and priority.
 */
const FILTERS: Record<string, (query: ListQuery, reader: Reader) => string | null | undefined> = {
  status: (query) => query.status,
  priority: (query) => query.priority,
  assignee_id: (query, reader) =>
    query.assignee_id === "unassigned" ? null : query.assignee_id === "me" ? me(reader) : query.assignee_id,
};
const ONLY_IN_TALLIES = new Set(["assignee_id"]);

/**
 * The filters asked for, as conditions (column: value) and as SQL on the unqualified columns, whose values are
 * placeholders (f_<column>) filled from values (Filled, platform/db.ts); shape names the SQL: the filtered columns, and
 * which of them are "is null".
 */
function filterOf(reader: Reader, query: ListQuery) {
  const conditions: Record<string, string | null> = {};
  for (const [column, valueIn] of Object.entries(FILTERS)) {
    const value = valueIn(query, reader);
    if (value !== undefined) conditions[column] = value;
  }
  const values: Record<string, string> = {};
  const parts: SQL[] = Object.entries(conditions).map(([column, value]) => {
    if (value === null) return sql` and ${sql.identifier(column)} is null`;
    values[`f_${column}`] = value;
    return sql` and ${sql.identifier(column)} = ${sql.placeholder(`f_${column}`)}`;
  });
  const shape = Object.entries(conditions)
    .map(([column, value]) => (value === null ? `${column} is null` : column))
    .join(",");
  const tallied = Object.keys(conditions).some((column) => ONLY_IN_TALLIES.has(column));
  return {
    sql: sql.join(parts),
    values,
    shape,
    conditions,
    totals: sql.raw(tallied ? "ticket_tallies" : "ticket_totals"),
  };
}

/** "me" in a filter: the signed-in member (an API key is nobody's "me"). */
function me(reader: Reader): string {
  if (reader.actor.kind !== "staff") {
    throw new AppError("BAD_REQUEST", "assignee_id=me needs a signed-in member; give a user id instead.");
  }
  return reader.actor.id;
}

/**
 * A list's columns, with the description cut to the list's preview (LIST_DESCRIPTION_CHARS, in the contract): the
 * rest of it would be read, sent and serialized for every page and shown by no list.
 */
const ticketListColumns = ticketSelectList(
  sql`left(${tickets.description}, ${sql.raw(String(LIST_DESCRIPTION_CHARS))})`,
);

/**
 * A page's tickets by number, with their assignee, shaped as TicketRowRead; `page` is a CTE of ticket_number (+ rank).
 *
 * The assignee is looked up per ticket by its key (a lateral subquery with a limit, which the planner cannot turn into
 * a join of its own choosing). As a plain join, PostgreSQL guesses 23 rows for each (organization, number) lookup (it
 * does not count the unique index in its row estimate), so about 900 for a 25-row page, and for every plan made with
 * the values (a filtered page, a page with an offset) it hashed the whole users table instead: a scan of every
 * organization's members per page, about half of PostgreSQL's CPU for a list page (docs/benchmarks.md, issue 34).
 */
const pageRows = (orgId: unknown) => sql`
  select ${ticketListColumns}, page.rank, ${cursorText(sql`tickets.updated_at`)} as "cursorUpdatedAt",
    ${cursorText(sql`tickets.sla_due_at`)} as "cursorSlaDueAt", ${cursorText(sql`page.rank`)} as "cursorRank"
  from page
  join tickets on tickets.organization_id = ${orgId} and tickets.ticket_number = page.ticket_number
  left join lateral (select u.first_name, u.last_name from users u where u.id = tickets.assignee_id limit 1) assignee
    on true`;

const BY_UPDATED = sql.raw("updated_at desc, ticket_number desc");
const BY_SLA = sql.raw("sla_due_at asc nulls last, updated_at desc, ticket_number desc");
/** The same orders backwards, read off the same indexes from their other end. */
const BY_UPDATED_REVERSED = sql.raw("updated_at asc, ticket_number asc");
const BY_SLA_REVERSED = sql.raw("sla_due_at desc nulls first, updated_at asc, ticket_number asc");

interface CursorColumns {
  cursorUpdatedAt: string;
  cursorSlaDueAt: string | null;
  cursorRank: string | null;
}

type PageRow = { total: number; rank: number | null } & (
  | ({ [K in keyof TicketRowRead]: TicketRowRead[K] } & CursorColumns)
  | { id: null }
);

/**
 * The orders a list can have, each with the columns a cursor keeps (platform/cursor.ts): by the tickets' own columns
 * in the plain list, and by the search's candidates (k: rank, updated_at, ticket_number) in a search.
 */
const ORDERS = {
  updated: {
    keys: [key("updated_at", "timestamptz", true), key("ticket_number", "integer", true)],
    values: (r: CursorColumns & TicketRowRead) => [r.cursorUpdatedAt, String(r.ticketNumber)],
  },
  sla_due: {
    keys: [
      key("sla_due_at", "timestamptz", false),
      key("updated_at", "timestamptz", true),
      key("ticket_number", "integer", true),
    ],
    values: (r: CursorColumns & TicketRowRead) => [r.cursorSlaDueAt, r.cursorUpdatedAt, String(r.ticketNumber)],
  },
  "search:updated": {
    keys: [
      key("k.rank", "real", true),
      key("k.updated_at", "timestamptz", true),
      key("k.ticket_number", "integer", true),
    ],
    values: (r: CursorColumns & TicketRowRead) => [r.cursorRank, r.cursorUpdatedAt, String(r.ticketNumber)],
  },
  "search:sla_due": {
    keys: [
      key("t.sla_due_at", "timestamptz", false),
      key("k.rank", "real", true),
      key("k.updated_at", "timestamptz", true),
      key("k.ticket_number", "integer", true),
    ],
    values: (r: CursorColumns & TicketRowRead) => [
      r.cursorSlaDueAt,
      r.cursorRank,
      r.cursorUpdatedAt,
      String(r.ticketNumber),
    ],
  },
} satisfies Record<string, { keys: SortKey[]; values: (r: CursorColumns & TicketRowRead) => CursorValue[] }>;
type OrderName = keyof typeof ORDERS;

function key(column: string, type: string, desc: boolean): SortKey {
  return { column: sql.raw(column), type, desc };
}

/** The page's start: after the cursor's row when one is given (the offset is then 0), else the page's offset. */
function pageStart(query: ListQuery, order: OrderName): { after: SQL; offset: number } {
  if (!query.cursor) return { after: sql``, offset: (query.page - 1) * query.limit };
  const { keys } = ORDERS[order];
  const values = decodeCursor(`tickets:${order}`, query.cursor, keys);
  return { after: sql` and ${after(keys, values)}`, offset: 0 };
}

function answer(rows: PageRow[], query: ListQuery, capped: boolean, order: OrderName): TicketListAnswer {
  const total = Number(rows[0]?.total ?? 0);
  const last = rows.at(-1);
  const full = rows.length === query.limit && last !== undefined && last.id !== null;
  const next_cursor = full
    ? encodeCursor(`tickets:${order}`, ORDERS[order].values(last as CursorColumns & TicketRowRead))
    : null;
  const tickets = rows.flatMap((r) => {
    if (r.id === null) return [];
    return [toTicketSummary(r as TicketRowRead)];
  });
  const pagination = {
    page: query.page,
    limit: query.limit,
    total,
    pages: Math.ceil(total / query.limit),
    next_cursor,
  };
  return { tickets, pagination: capped ? { ...pagination, capped } : pagination };
}

/**
 * One statement: the page's ticket numbers come off the index that matches the filter (no row is read for the
 * tickets skipped by the offset), then only those rows are read; the total adds up ticket_totals (at most 16 rows),
 * or ticket_tallies when the list is filtered by assignee.
 *
 * A numbered page past the list's middle is counted from its end: the same index read backwards, skipping
 * total - offset - limit entries instead of offset (the last page of 10,000 tickets skips none, where it skipped
 * 9,975). The total is exact (the triggers keep ticket_totals and ticket_tallies in the transaction of every change)
 * and read in the same statement, so in the same snapshot as the tickets: both ways give the same rows, and the
 * final order by is the page's. Which way a page goes is decided by the total in the plan's one-time filters; each
 * way alone gives the whole page, so nothing depends on the order things are evaluated in.
 */
function listPage(reader: Reader, query: ListQuery): OneRead<PageRow, TicketListAnswer> {
  const filter = filterOf(reader, query);
  // Sorted by due time: tickets_org_sla_due_idx holds that order in full, as the other list indexes hold theirs.
  const bySla = query.sort === "sla_due";
  const orderName = bySla ? "sla_due" : "updated";
  const start = pageStart(query, orderName);
  // A page filtered by a value is planned with that value (byValue: as valuePlannedRows). Prepared, PostgreSQL soon switches to a
  // generic plan costed for an average organization's few matches, and that plan reads the whole organization's index
  // and sorts what passes the filter (100,000 index entries for 25 rows in an organization of 100,000 tickets), where
  // the plan for the actual values walks the filter's own index in order and stops at the page (docs/benchmarks.md).
  // A filter for an empty column ("is null") has no value, so its plan is the same either way.
  const byValue = Object.values(filter.conditions).some((value) => value !== null);
  // A page without a cursor is one of a few statements (by filter, order, and whether it starts at the top), each built
  // once; a cursor's values are in its SQL, so that page's statement is built for it.
  const key = query.cursor ? null : `${filter.shape}|${orderName}|${start.offset === 0 ? "top" : "offset"}`;
  let template = key === null ? undefined : listTemplates.get(key);
  if (!template) {
    template = listStatement(filter, bySla, start);
    if (key !== null) listTemplates.set(key, template);
  }
  const values = { ...filter.values, org: reader.orgId, limit: query.limit, offset: start.offset };
  return {
    statement: filled(template, values),
    byValue,
    answer: (rows) => answer(rows, query, false, orderName),
  };
}

/** The list's statements without a cursor, by listPage's key. */
const listTemplates = new Map<string, SQL>();

/** A list page's statement, its values as placeholders: org, limit, offset and the filter's (filterOf). */
function listStatement(filter: ReturnType<typeof filterOf>, bySla: boolean, start: { after: SQL; offset: number }) {
  const org = sql.placeholder("org");
  const limit = sql.placeholder("limit");
  const offset = sql.placeholder("offset");
  const order = bySla ? BY_SLA : BY_UPDATED;
  const numbers = sql`select ticket_number, null::real as rank from tickets
      where organization_id = ${org}${filter.sql}${start.after}`;
  // The first page, and every page after a cursor, start at the top: only forwards.
  const page =
    start.offset === 0
      ? sql`${numbers} order by ${order} limit ${limit}`
      : // The outer limit changes no answer (each way gives at most a page); it tells the planner a page is that small
        // (it takes a limit it cannot compute for a tenth of the organization's tickets, and would plan the rows'
        // reads for that many).
        sql`select ticket_number, rank from ((${numbers} and ${offset} * 2 <= (select total from total)
          order by ${order} limit ${limit} offset ${offset})
        union all
        (${numbers} and ${offset} * 2 > (select total from total)
          order by ${bySla ? BY_SLA_REVERSED : BY_UPDATED_REVERSED}
          limit greatest(0, least(${limit}, (select total from total) - ${offset}))
          offset greatest(0, (select total from total) - ${offset} - ${limit}))) either_way
        limit ${limit}`;
  return sql`
    with total as (
      select coalesce(sum(n), 0)::int as total from ${filter.totals}
      where organization_id = ${org}${filter.sql}
    ),
    page as (${page})
    select total.total, p.* from total left join lateral (${pageRows(org)}) p on true
    order by ${bySla ? sql.raw(`p."slaDueAt" asc nulls last, `) : sql``}p."updatedAt" desc, p."ticketNumber" desc`;
}

/**
 * Search ranks the organization's most recent SEARCH_CANDIDATES matches (ticket_search_candidates, migration 0014)
 * and pages through them; a ticket whose number was typed ("#123" or "123") comes first. Past that many matches the
 * total says so (capped) instead of counting every match of a common word.
 */
function searchPage(reader: Reader, query: ListQuery, search: string): OneRead<PageRow, TicketListAnswer> {
  const number = ticketNumberIn(search);
  // "#123" asks for ticket 123 alone; a bare "123" also finds tickets that mention it (an order number, say).
  const tsQuery = number !== null && search.trim().startsWith("#") ? null : toTsQuery(search);
  const orderName = query.sort === "sla_due" ? "search:sla_due" : "search:updated";
  const filter = filterOf(reader, query);
  const start = pageStart(query, orderName);
  const byWords = tsQuery
    ? sql`select ticket_number, rank, updated_at from ticket_search_candidates(
            to_tsquery('english'::regconfig, ${tsQuery}), ${JSON.stringify(filter.conditions)}::jsonb,
            ${SEARCH_CANDIDATES + 1})`
    : null;
  const byNumber =
    number !== null
      ? sql`select ticket_number, 1000::real as rank, updated_at from tickets
            where organization_id = ${reader.orgId} and ticket_number = ${number}${filter.sql}`
      : null;
  // Nothing to search for (only punctuation, say): no match, read as one all the same (the session is checked).
  const found =
    byWords && byNumber
      ? sql`${byWords} union all ${byNumber}`
      : (byWords ??
        byNumber ??
        sql`select null::int as ticket_number, null::real as rank, null::timestamptz as updated_at where false`);
  const statement = filled(
    sql`
    with found as (${found}),
    ranked as (
      select distinct on (ticket_number) ticket_number, rank, updated_at from found order by ticket_number, rank desc
    ),
    total as (select count(*)::int as total from ranked),
    kept as (
      select ticket_number, rank, updated_at from ranked
      order by rank desc, updated_at desc, ticket_number desc limit ${SEARCH_CANDIDATES}
    ),
    page as (${
      query.sort === "sla_due"
        ? sql`
      select k.ticket_number, k.rank from kept k
      join tickets t on t.organization_id = ${reader.orgId} and t.ticket_number = k.ticket_number
      where true${start.after}
      order by t.sla_due_at asc nulls last, k.rank desc, k.updated_at desc, k.ticket_number desc`
        : sql`
      select k.ticket_number, k.rank from kept k
      where true${start.after}
      order by k.rank desc, k.updated_at desc, k.ticket_number desc`
    }
      limit ${query.limit} offset ${start.offset}
    )
    select total.total, p.* from total left join lateral (${pageRows(reader.orgId)}) p on true
    order by ${query.sort === "sla_due" ? sql.raw(`p."slaDueAt" asc nulls last, `) : sql``}p.rank desc, p."updatedAt" desc, p."ticketNumber" desc`,
    filter.values,
  );
  return {
    statement,
    byValue: false,
    answer: (rows) => {
      const total = Number(rows[0]?.total ?? 0);
      if (total <= SEARCH_CANDIDATES) return answer(rows, query, false, orderName);
      return answer(
        rows.map((r) => ({ ...r, total: SEARCH_CANDIDATES })),
        query,
        true,
        orderName,
      );
    },
  };
}

/**
 * A page of the ticket list, or of a search, as one read (OneRead, platform/tenancy.ts): its route sends it with its
 * transaction's BEGIN and COMMIT.
 */
export function ticketListRead(reader: Reader, query: ListQuery): OneRead<PageRow, TicketListAnswer> {
  return query.search ? searchPage(reader, query, query.search) : listPage(reader, query);
}

/** A page of the list (ticketListRead) in a transaction already open. */
export const listTickets = (ctx: TenantCtx, query: ListQuery) => readIn(ctx.db, ticketListRead(ctx, query));
