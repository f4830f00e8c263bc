import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";
import { recordRequests, recordStatements } from "../support/statements.ts";

/**
 * A cached answer is served until the organization's data version changes, and only the tables with a
 * data_version_bump trigger change it. So every table a cached route reads must have that trigger, or a reason here
 * why a change to it cannot change the answer. The test runs each cached route, records the statements it sends,
 * asks PostgreSQL which tables each one reads (EXPLAIN, and the bodies of the SQL functions it calls), and fails on a
 * table that is neither versioned nor listed below: a new column or join from an unversioned table is caught here,
 * not by a user who sees an old answer.
 */
const NOT_VERSIONED: Record<string, string> = {
  data_versions: "is the version itself",
  sessions: "checked on every request, cached or not, by the statement that reads the version (readDataStates)",
  two_factor:
    "read with the session (must the member first set up two-factor sign-in?) on every request, cached or not, by the statement that reads the version; it decides whether to answer, never what",
  organizations:
    "read for the caller's organization and its time zone, which are in the key (the organization, and the day for daily answers); a change of time zone bumps the version too (0080), nothing else of it does",
  ticket_totals: "kept by triggers on tickets, which are versioned, in the same transaction",
  ticket_tallies: "kept by triggers on tickets, which are versioned, in the same transaction",
};

/** A 90-day report up to today (UTC), with `more` query fields. */
const report = (more = "") => {
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  return `/api/reports?from=${day(89)}&to=${day(0)}${more}`;
};

/** The URLs that exercise each cached route's ways of reading (a list, a filter, a search...). */
const SAMPLES: Record<string, (ids: { ticket: string; member: string }) => string[]> = {
  "GET /api/tickets": () => [
    "/api/tickets",
    "/api/tickets?status=open&priority=high",
    "/api/tickets?assignee_id=me",
    "/api/tickets?assignee_id=unassigned",
    "/api/tickets?search=lamp",
    "/api/tickets?search=%231",
  ],
  "GET /api/tickets/stats/overview": () => ["/api/tickets/stats/overview"],
  "GET /api/tickets/:id": ({ ticket }) => [`/api/tickets/${ticket}`],
  "GET /api/organizations/stats": () => ["/api/organizations/stats"],
  "GET /api/reports": ({ member }) => [
    report(),
    report("&group=week"),
    report(`&agent=${member}`),
    report("&channel=chat"),
    report("&priority=high&tag=lamp"),
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ setup: recordRequests });
});
afterAll(() => t.close());

/**
 * The public tables whose changes bump the data version: at least one of its version triggers bumps on every change of
 * some kind (no WHEN). A table whose every version trigger has a condition bumps only on some changes: it needs a
 * reason above.
 */
async function versionedTables(): Promise<Set<string>> {
  const { rows } = await t.database.executeSql(
    `select distinct c.relname from pg_trigger tg
       join pg_class c on c.oid = tg.tgrelid
       join pg_proc p on p.oid = tg.tgfoid
     where p.proname = 'data_version_bump' and not tg.tgisinternal and tg.tgqual is null`,
  );
  return new Set(rows.map((r) => String(r.relname)));
}

describe("what cached routes read is versioned", () => {
  it("has samples for every cached route", () => {
    expect([...t.app.cachedRoutes].sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it("finds the tables a read uses, through SQL functions too", async () => {
    const org = await registerOrg(t.app);
    const reads = await recordStatements(t, () =>
      t.app.inject({ method: "GET", url: "/api/tickets?search=lamp", headers: bearer(org.token) }),
    );
    // The search runs ticket_search_candidates(), a function over tickets.
    expect(reads.tables).toContain("tickets");
    expect(reads.unexplained).toEqual([]);
  });

  it("reads only versioned tables or tables with a reason not to be", async () => {
    const org = await registerOrg(t.app);
    const member = await addMember(t.database, org.user.organizationId, { role: "agent" });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(org.token),
      payload: {
        subject: "A lamp arrived broken",
        description: "In pieces.",
        requester_name: "Ana Ruiz",
        requester_email: "ana@example.com",
        assignee_id: member.id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = created.json().ticket.id as string;
    const comment = await t.app.inject({
      method: "POST",
      url: `/api/tickets/${ticket}/comments`,
      headers: bearer(org.token),
      payload: { body: "Sorry to hear that.", is_public: true },
    });
    expect(comment.statusCode, comment.body).toBe(201);

    const versioned = await versionedTables();
    const offenders: string[] = [];
    const seen = new Set<string>();
    for (const [route, samples] of Object.entries(SAMPLES)) {
      for (const url of samples({ ticket, member: member.id })) {
        const reads = await recordStatements(t, async () => {
          const res = await t.app.inject({ method: "GET", url, headers: bearer(org.token) });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        });
        expect(reads.unexplained, url).toEqual([]);
        expect(reads.tables.length, url).toBeGreaterThan(0);
        for (const table of reads.tables) {
          seen.add(table);
          if (!versioned.has(table) && !(table in NOT_VERSIONED)) offenders.push(`${route} (${url}) reads ${table}`);
        }
      }
    }
    expect(offenders).toEqual([]);
    // The reasons stay true: each table listed is read by a cached route and has no version trigger.
    for (const table of Object.keys(NOT_VERSIONED)) {
      expect(seen.has(table), `${table} is listed but no cached route reads it`).toBe(true);
      expect(versioned.has(table), `${table} is listed but versioned`).toBe(false);
    }
  });
});
