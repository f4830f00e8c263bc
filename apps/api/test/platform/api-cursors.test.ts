import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db.ts";
import { client, createArticle, registerOrg, testAppWithMail, ticketFields } from "../helpers.ts";
import { portalSignIn } from "../support/portal.ts";

/**
 * Cursor pagination (issue 33, item 2): every list that pages gives next_cursor, and walking a list by cursor gives
 * exactly the rows walking it by page gives, in the same order, whatever ties and empty values its sort keys have;
 * rows added while a program walks it are neither repeated nor make it skip any.
 */
const { t, smtp } = testAppWithMail();

type Session = { token: string };
const call = client(() => t.app);
interface Page {
  pagination: { next_cursor: string | null; total: number };
  [list: string]: unknown;
}

async function get(who: Session | string, url: string): Promise<Page> {
  const res = await call(who, "GET", url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

const idsOf = (page: Page, list: string) => (page[list] as { id: string }[]).map((r) => r.id);

/** The whole list, page by page (page=1, 2, ...), as ids. */
async function byPage(who: Session | string, url: string, list: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const found = idsOf(await get(who, `${url}${url.includes("?") ? "&" : "?"}page=${page}`), list);
    if (found.length === 0) return ids;
    ids.push(...found);
  }
}

/** The whole list by following next_cursor, as ids. */
async function byCursor(who: Session | string, url: string, list: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const at: string = cursor === null ? url : `${url}${url.includes("?") ? "&" : "?"}cursor=${cursor}`;
    const page = await get(who, at);
    ids.push(...idsOf(page, list));
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return ids;
}

describe("tickets by cursor", () => {
  let org: Session;
  beforeAll(async () => {
    const registered = await registerOrg(t.app);
    org = registered;
    for (let i = 0; i < 23; i++) {
      const res = await call(org, "POST", "/api/tickets", ticketFields({ subject: `Harbor crane ${i}` }));
      expect(res.statusCode).toBe(201);
    }
    // Ties on every sort key the lists use: equal change times (to the microsecond) and equal SLA due times, with
    // some tickets due at no time at all.
    await queryRows(
      t.database.db,
      sql`update tickets set updated_at = '2026-03-01T10:00:00.123456Z',
            first_response_due_at = case when ticket_number % 3 = 0 then null
                                         else '2026-03-02T10:00:00Z'::timestamptz + (ticket_number % 2) * interval '1 hour' end
          where organization_id = ${registered.user.organizationId} and ticket_number % 2 = 0`,
    );
  });

  for (const query of ["", "?sort=sla_due", "?search=harbor", "?search=harbor&sort=sla_due", "?status=open&limit=4"]) {
    it(`walks ${query || "the default list"} exactly as pages do`, async () => {
      const url = `/api/tickets${query}${query ? "&" : "?"}limit=4`.replace("&limit=4&limit=4", "&limit=4");
      const paged = await byPage(org, url, "tickets");
      expect(paged).toHaveLength(23);
      expect(await byCursor(org, url, "tickets")).toEqual(paged);
    });
  }

  it("neither repeats nor skips a ticket when new ones arrive during the walk", async () => {
    const first = await get(org, "/api/tickets?limit=5");
    const seen = idsOf(first, "tickets");
    for (let i = 0; i < 3; i++) await call(org, "POST", "/api/tickets", ticketFields({ subject: `Late ${i}` }));
    let cursor = first.pagination.next_cursor;
    while (cursor !== null) {
      const page = await get(org, `/api/tickets?limit=5&cursor=${cursor}`);
      seen.push(...idsOf(page, "tickets"));
      cursor = page.pagination.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(23);
  });

  it("refuses a cursor it did not give, or one from another order, with 400 and a message", async () => {
    const sla = await get(org, "/api/tickets?sort=sla_due&limit=4");
    const cursor = sla.pagination.next_cursor as string;
    for (const bad of ["nonsense", "x".repeat(1001), cursor]) {
      const res = await call(org, "GET", `/api/tickets?limit=4&cursor=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/cursor/);
    }
    const forge = (...values: unknown[]) => Buffer.from(JSON.stringify(values)).toString("base64url");
    for (const forged of [
      forge("tickets:updated", "not a time", "1"),
      forge("tickets:updated", "2026-03-01T10:00:00Z", "1; drop table tickets"),
      forge("tickets:updated", null, "1"),
      forge("tickets:updated", "2026-03-01T10:00:00Z"),
      forge("tickets:updated", 5, "1"),
    ]) {
      const res = await call(org, "GET", `/api/tickets?cursor=${forged}`);
      expect(res.statusCode, res.body).toBe(400);
    }
  });

  it("shows another organization nothing through a cursor made from this one's rows", async () => {
    const cursor = (await get(org, "/api/tickets?limit=4")).pagination.next_cursor as string;
    const other = await registerOrg(t.app);
    const theirs = await get(other, `/api/tickets?limit=4&cursor=${cursor}`);
    expect(theirs.tickets).toEqual([]);
  });
});

describe("contacts, articles and a customer's tickets by cursor", () => {
  it("walk exactly as pages do", async () => {
    const org = await registerOrg(t.app);
    const slug = (await get(org, "/api/auth/me")).user as { organizationSlug: string };
    for (let i = 0; i < 28; i++) {
      const email = i < 27 ? `buyer${i}@example.com` : "many@example.com";
      await call(org, "POST", "/api/tickets", ticketFields({ requester_email: email, requester_name: `Buyer ${i}` }));
    }
    for (let i = 0; i < 27; i++) {
      await call(org, "POST", "/api/tickets", ticketFields({ requester_email: "many@example.com" }));
    }
    const contacts = await byPage(org, "/api/contacts", "contacts");
    expect(contacts).toHaveLength(28);
    expect(await byCursor(org, "/api/contacts", "contacts")).toEqual(contacts);
    expect(await byCursor(org, "/api/contacts?search=buyer", "contacts")).toEqual(
      await byPage(org, "/api/contacts?search=buyer", "contacts"),
    );

    for (let i = 0; i < 9; i++) await createArticle(t.app, org, { title: `Waxing skis part ${i}` });
    for (const url of ["/api/kb/articles?limit=4", "/api/kb/articles?limit=4&search=waxing"]) {
      const paged = await byPage(org, url, "articles");
      expect(paged).toHaveLength(9);
      expect(await byCursor(org, url, "articles")).toEqual(paged);
    }

    const customer = await portalSignIn(t, smtp, slug.organizationSlug, "many@example.com");
    const mine = await byPage(customer, "/api/portal/tickets", "tickets");
    expect(mine).toHaveLength(28);
    expect(await byCursor(customer, "/api/portal/tickets", "tickets")).toEqual(mine);
  });
});
