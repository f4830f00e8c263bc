import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { users } from "../../src/db/schema/users.ts";
import { confinedRead, preparedRows, queryRows, transactionFrom } from "../../src/platform/db.ts";
import { withoutTheRule } from "../../src/platform/sql-log.ts";
import { type OneRead, REQUEST_ROLE, readAsTenant, readWithApiKey, withTenant } from "../../src/platform/tenancy.ts";
import { orgForFile, testAppForFile } from "../helpers.ts";

const t = testAppForFile();
const a = orgForFile(t);
const b = orgForFile(t);

const as = (who: typeof a) => ({ orgId: who.user.organizationId, userId: who.user.id, role: who.user.role });

describe("row-level security", () => {
  it("confines a query that forgets its organization filter to the caller's rows", async () => {
    const seen = await withTenant(t.database.db, as(a), async (ctx) => ({
      orgs: await ctx.db.select({ id: organizations.id }).from(organizations),
      users: await ctx.db.select({ id: users.id, org: users.organizationId }).from(users),
      sessions: await ctx.db.select({ org: sessions.organizationId }).from(sessions),
    }));
    expect(seen.orgs).toEqual([{ id: a.user.organizationId }]);
    expect(seen.users).toEqual([{ id: a.user.id, org: a.user.organizationId }]);
    expect(seen.sessions.length).toBeGreaterThan(0);
    expect(seen.sessions.every((s) => s.org === a.user.organizationId)).toBe(true);
  });

  it("cannot update or delete another organization's rows, even by id", async () => {
    await withTenant(t.database.db, as(a), (ctx) =>
      withoutTheRule(async () => {
        await ctx.db.execute(sql`update users set first_name = 'Hacked' where id = ${b.user.id}`);
        await ctx.db.execute(sql`delete from sessions where user_id = ${b.user.id}`);
      }),
    );
    const [row] = await queryRows(t.database.db, sql`select first_name from users where id = ${b.user.id}`);
    expect(row).toEqual({ first_name: "Ada" });
    const [left] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sessions where user_id = ${b.user.id}`,
    );
    expect(left?.n).toBeGreaterThan(0);
  });

  it("refuses to write a row into another organization", async () => {
    await expect(
      withTenant(t.database.db, as(a), (ctx) =>
        ctx.db.insert(users).values({
          organizationId: b.user.organizationId,
          email: "intruder@example.com",
          firstName: "In",
          lastName: "Truder",
          role: "admin",
        }),
      ),
    ).rejects.toThrow();
    const [found] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where email = 'intruder@example.com'`,
    );
    expect(found?.n).toBe(0);
  });

  it("sees nothing at all without an organization", async () => {
    const rows = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', ${REQUEST_ROLE}, true)`);
      return queryRows(tx, sql`select id from users`);
    });
    expect(rows).toEqual([]);
  });

  it("runs requests under a role that is neither superuser nor exempt from RLS, and drops it at commit", async () => {
    const role = await withTenant(t.database.db, as(a), async (ctx) => {
      const [r] = await queryRows(
        ctx.db,
        sql`select current_user as name, rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
      );
      return r;
    });
    expect(role).toEqual({ name: REQUEST_ROLE, rolsuper: false, rolbypassrls: false });
    const [after] = await queryRows<{ name: string; org: string | null }>(
      t.database.db,
      sql`select current_user as name, current_setting('app.org_id', true) as org`,
    );
    expect(after?.name).not.toBe(REQUEST_ROLE);
    expect(after?.org ?? "").toBe("");
  });

  it("runs the confining statement inside the transaction it opens (with its BEGIN, one round trip on PostgreSQL)", async () => {
    type Seen = { xid: string; org: string };
    const first = sql`select txid_current()::text as xid, set_config('app.org_id', ${a.user.organizationId}::text, true) as org`;
    const [opened, inside] = await transactionFrom<Seen, [Seen | undefined, Seen | undefined]>(
      t.database.db,
      first,
      async (tx, [row]) => {
        const [later] = await queryRows<Seen>(
          tx,
          sql`select txid_current()::text as xid, current_setting('app.org_id', true) as org`,
        );
        return [row, later];
      },
    );
    // The same transaction id and the same transaction-local setting: the statement did not run on its own.
    expect(opened?.org).toBe(a.user.organizationId);
    expect(inside).toEqual(opened);
    // Again and again, alternating organizations, so connections come back from the pool with the statement prepared.
    for (let i = 0; i < 12; i++) {
      const who = i % 2 === 0 ? a : b;
      const [seen] = await withTenant(t.database.db, as(who), (ctx) =>
        queryRows<{ org: string }>(ctx.db, sql`select current_setting('app.org_id', true) as org`),
      );
      expect(seen?.org).toBe(who.user.organizationId);
    }
  });

  it("leaves no transaction, role or organization behind when the confining statement or the work fails", async () => {
    const db = t.database.db;
    const dividing = (by: number) =>
      transactionFrom(
        db,
        sql`select set_config('app.org_id', ${a.user.organizationId}::text, true), 1 / ${by}::int`,
        () => Promise.resolve("ran"),
      );
    await expect(dividing(0)).rejects.toThrow(/division by zero/);
    await expect(
      transactionFrom(db, sql`select set_config('app.org_id', ${a.user.organizationId}::text, true)`, async (tx) => {
        await tx.execute(sql`update users set first_name = 'Rolled' where id = ${a.user.id}`);
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    await expect(
      withTenant(db, { ...as(a), sessionId: "00000000-0000-4000-8000-000000000000" }, () => Promise.resolve("ran")),
    ).rejects.toThrow("Your session has ended");
    await expectCleanConnections(db);
    expect(await dividing(1)).toBe("ran");
    const [row] = await queryRows<{ first_name: string }>(
      db,
      sql`select first_name from users where id = ${a.user.id}`,
    );
    expect(row?.first_name).not.toBe("Rolled");
  });

  it("reads in one round trip with its BEGIN, confining statement and COMMIT (confinedRead), in one transaction", async () => {
    const db = t.database.db;
    const confining = (who: typeof a) =>
      sql`select set_config('app.org_id', ${who.user.organizationId}::text, true) as org, txid_current()::text as xid`;
    const reading = sql`select id, first_name, created_at, current_setting('app.org_id', true) as org,
                               txid_current()::text as xid from users
                        where organization_id = ${a.user.organizationId} and id = ${a.user.id}`;
    type Read = { id: string; first_name: string; created_at: string; org: string; xid: string };
    const [expected] = await transactionFrom(db, confining(a), (tx) => preparedRows<Read>(tx, reading));
    // Again and again, both ways of planning, alternating with transactionFrom (which prepares the same confining
    // statement as its own), so pooled connections come back with either statement prepared by the other path.
    for (let i = 0; i < 12; i++) {
      const { first, rows } = await confinedRead<{ org: string; xid: string }, Read>(
        db,
        confining(a),
        reading,
        i % 2 === 1,
      );
      // The same rows preparedRows reads (the same parsers: times as text), read in the transaction first confined.
      expect(rows).toEqual([{ ...expected, xid: first[0]?.xid }]);
      expect(first[0]?.org).toBe(a.user.organizationId);
      if (i % 3 === 0) await transactionFrom(db, confining(b), (tx) => preparedRows<Read>(tx, reading));
    }
    // A statement without values goes through the same pipeline.
    const { rows: plain } = await confinedRead(db, sql`select 1 as confined`, sql`select 2 as two`, false);
    expect(plain).toEqual([{ two: 2 }]);
    await expectCleanConnections(db);
  });

  it("commits what the pipeline wrote, and nothing when a statement fails; nothing runs after a failure", async () => {
    const db = t.database.db;
    const renaming = (name: string) =>
      sql`with renamed as (update users set first_name = ${name} where id = ${a.user.id} returning 1)
          select set_config('app.org_id', ${a.user.organizationId}::text, true), (select count(*)::int from renamed) as n`;
    const firstName = async () =>
      (await queryRows<{ first_name: string }>(db, sql`select first_name from users where id = ${a.user.id}`))[0]
        ?.first_name;
    await confinedRead(db, renaming("Committed"), sql`select 1 as one`, false);
    expect(await firstName()).toBe("Committed");
    // The read fails: the COMMIT does not run, the write before it is undone, and the connections go back clean.
    await expect(confinedRead(db, renaming("Rolled"), sql`select 1 / ${0}::int as never`, false)).rejects.toThrow(
      /division by zero/,
    );
    expect(await firstName()).toBe("Committed");
    // The confining statement fails: the read (here one that writes) never runs.
    const writingRead = sql`with renamed as (update users set first_name = 'Ran'
                                             where organization_id = ${a.user.organizationId} and id = ${a.user.id}
                                             returning 1)
                            select count(*)::int as n from renamed`;
    await expect(confinedRead(db, sql`select 1 / ${0}::int as never`, writingRead, true)).rejects.toThrow(
      /division by zero/,
    );
    expect(await firstName()).toBe("Committed");
    await expectCleanConnections(db);
  });

  it("hands a one-read's rows back only for a session or key that still counts", async () => {
    const db = t.database.db;
    const read: OneRead<{ id: string }, string[]> = {
      statement: sql`select id from users where organization_id = ${a.user.organizationId}`,
      byValue: false,
      answer: (rows) => rows.map((r) => r.id),
    };
    const [session] = await queryRows<{ id: string }>(
      db,
      sql`select id from sessions where user_id = ${a.user.id} and expires_at > now() limit 1`,
    );
    const who = { kind: "staff" as const, ...as(a), sessionId: session?.id ?? "" };
    const live = await readAsTenant(db, who, read);
    expect(live).toMatchObject({ role: a.user.role, enrolmentRequired: false });
    expect(read.answer(live.rows)).toContain(a.user.id);
    await expect(readAsTenant(db, { ...who, sessionId: "00000000-0000-4000-8000-000000000000" }, read)).rejects.toThrow(
      "Your session has ended",
    );
    const keyOf = {
      kind: "api_key" as const,
      orgId: a.user.organizationId,
      scope: "read" as const,
      plan: "growth" as const,
    };
    await expect(readWithApiKey(db, { ...keyOf, keyId: "00000000-0000-4000-8000-000000000000" }, read)).rejects.toThrow(
      "This API key has been revoked.",
    );
    await expectCleanConnections(db);
  });

  it("protects every table that has an organization_id column", async () => {
    const tables = await queryRows<{ table: string; rls: boolean; policies: number; owned_by_other: boolean }>(
      t.database.db,
      sql`
      select c.relname as table, c.relrowsecurity as rls,
             (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies,
             pg_get_userbyid(c.relowner) <> ${REQUEST_ROLE} as owned_by_other
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and (exists (select 1 from information_schema.columns col
                     where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'organization_id')
             or c.relname = 'organizations')`,
    );
    expect(tables.map((r) => r.table).sort()).toEqual(expect.arrayContaining(["organizations", "sessions", "users"]));
    for (const table of tables) {
      expect(table, table.table).toMatchObject({ rls: true, owned_by_other: true });
      expect(table.policies, table.table).toBeGreaterThan(0);
    }
  });
});

/** Every pooled connection (asked more often than the pool holds) is back as the owner, out of any transaction. */
async function expectCleanConnections(db: typeof t.database.db) {
  for (let i = 0; i < 12; i++) {
    const [after] = await queryRows<{ name: string; org: string | null; idle: boolean }>(
      db,
      sql`select current_user as name, current_setting('app.org_id', true) as org,
                 txid_current_if_assigned() is null as idle`,
    );
    expect(after?.name).not.toBe(REQUEST_ROLE);
    expect(after?.org ?? "").toBe("");
    expect(after?.idle).toBe(true);
  }
}
