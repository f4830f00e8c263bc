import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readLog, tablesOf, tenantTablesOfMigrations, violations } from "./check-queries.mjs";

const SCRIPT = path.join(import.meta.dirname, "check-queries.mjs");
let folder: string | null = null;

/** A statement log folder as platform/sql-log.ts writes it: [mark and origin, statement] records. */
function log(records: [string, string][]): string {
  folder = mkdtempSync(path.join(tmpdir(), "sql-log-"));
  const text = records.map(([head, statement]) => `${head}\n${statement}\n\u0000\n`).join("");
  writeFileSync(path.join(folder, "1-a.sql"), text);
  return folder;
}

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = null;
});

const tenant = new Set(["tickets", "comments", "users"]);

describe("check-queries", () => {
  it("reads the tables a statement names, not the functions it calls or a column's qualifier", () => {
    const text = `select t.id from "tickets" t join public.comments c on c.ticket_id = t.id
      cross join unnest($1::uuid[]) as u(id) where extract(epoch from "t"."created_at") > 0`;
    expect([...tablesOf(text)].sort()).toEqual(["comments", "created_at", "tickets"]);
    expect([...tablesOf("update tickets set status = 'open'")]).toEqual(["tickets"]);
    expect([...tablesOf('insert into "comments" ("id") values ($1)')]).toEqual(["comments"]);
  });

  it("refuses a confined statement on an organization's table that does not name organization_id", () => {
    const statements = [
      { sql: 'select "status" from "tickets" where "tickets"."id" = $1', confined: true, origin: "a.ts:1 f" },
      { sql: "select 1 from tickets where organization_id = $1 and id = $2", confined: true, origin: "-" },
      // The owner role's own work (sign-in, sweeps over every organization) and tests' set-up are not judged.
      { sql: "update tickets set created_at = $1 where id = $2", confined: false, origin: "-" },
      // No table of an organization's data.
      { sql: "select pg_notify($1, $2)", confined: true, origin: "-" },
      { sql: "update organizations set ticket_seq = ticket_seq + 1 where id = $1", confined: true, origin: "-" },
    ];
    expect(violations(statements, tenant).map((s) => s.origin)).toEqual(["a.ts:1 f"]);
  });

  it("counts a statement as confined when any process sent it confined, and keeps the origin the stack showed", () => {
    const dir = log([
      ["owner -", "select id from users where id = $1"],
      ["confined modules/x.ts:3 read", "select  id from users\n where id = $1"],
    ]);
    expect(readLog(dir)).toEqual([
      { sql: "select id from users where id = $1", confined: true, origin: "modules/x.ts:3 read" },
    ]);
  });

  it("finds the organization's tables in the migrations, without organizations itself", async () => {
    const tables = await tenantTablesOfMigrations();
    expect(tables.has("tickets")).toBe(true);
    expect(tables.has("users")).toBe(true);
    expect(tables.has("attachment_parts")).toBe(true);
    expect(tables.has("organizations")).toBe(false);
  }, 240_000);

  it("fails with the statement and where it came from, and passes a clean log", () => {
    const run = (dir: string) => {
      try {
        return { code: 0, out: execFileSync(process.execPath, [SCRIPT, dir], { stdio: "pipe" }).toString() };
      } catch (error) {
        const { status, stderr } = error as { status: number; stderr: Buffer };
        return { code: status, out: String(stderr) };
      }
    };
    const bad = run(log([["confined modules/tickets/x.ts:9 read", "select subject from tickets where id = $1"]]));
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("modules/tickets/x.ts:9 read: select subject from tickets where id = $1");
    rmSync(folder as string, { recursive: true, force: true });
    const good = run(log([["confined -", "select subject from tickets where organization_id = $1 and id = $2"]]));
    expect(good).toEqual({ code: 0, out: "check-queries: 1 confined statements of 1 name organization_id\n" });
  }, 240_000);
});
