#!/usr/bin/env node
// The query rule (CODE_STYLE.md, "Queries"), checked on the SQL the API tests really executed: every statement a
// confined transaction (a request, a job or a handler acting in one organization) sends that reads or writes a table of
// an organization's data names organization_id, even though row-level security would confine it anyway.
//
// A static check of the code cannot see this: about half the statements are Drizzle builders whose filter comes from
// a helper (`mine(ctx)`), and a grep cannot follow it. The statements themselves can be read: run the API tests with
// COVE_SQL_LOG=<folder> (platform/sql-log.ts writes each distinct statement once, marked confined or not), then
//   node scripts/check-queries.mjs <folder>
// The tables of an organization's data are read from the migrations themselves: every table with an organization_id
// column. `organizations` is not one of them: its own row is found by its id.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The records of a statement log folder: { confined, origin, sql } once per distinct statement text. */
export function readLog(folder) {
  const statements = new Map();
  for (const name of readdirSync(folder)) {
    for (const record of readFileSync(path.join(folder, name), "utf8").split("\n\u0000\n")) {
      const newline = record.indexOf("\n");
      if (newline < 0) continue;
      const [mark, ...origin] = record.slice(0, newline).split(" ");
      const text = record
        .slice(newline + 1)
        .replace(/\s+/g, " ")
        .trim();
      const seen = statements.get(text);
      const confined = mark === "confined" || Boolean(seen?.confined);
      const where = origin.join(" ");
      statements.set(text, { sql: text, confined, origin: seen?.origin && seen.origin !== "-" ? seen.origin : where });
    }
  }
  return [...statements.values()];
}

/**
 * The tables a statement names after from, join, update or into (a function called after from or join, such as
 * unnest(...), is not a table; of a qualified name the table is the last part).
 */
export function tablesOf(text) {
  const names = new Set();
  const word = `"?[A-Za-z_][A-Za-z0-9_]*"?`;
  const pattern = new RegExp(`\\b(from|join|update|into)\\s+(${word})(?:\\s*\\.\\s*(${word}))?(\\s*\\()?`, "gi");
  for (const match of text.matchAll(pattern)) {
    const called = match[4] && /^(from|join)$/i.test(match[1]);
    if (!called) names.add((match[3] ?? match[2]).replaceAll('"', "").toLowerCase());
  }
  return names;
}

/** The statements that break the rule: confined, on a table of an organization's data, without organization_id. */
export function violations(statements, tenantTables) {
  return statements.filter((s) => {
    if (!s.confined || /\borganization_id\b/i.test(s.sql)) return false;
    return [...tablesOf(s.sql)].some((table) => tenantTables.has(table));
  });
}

/** Every table with an organization_id column, on a fresh embedded database migrated with the bundled migrations. */
export async function tenantTablesOfMigrations() {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite();
  try {
    await migrate(drizzle(client), { migrationsFolder: path.join(root, "apps/api/src/db/migrations") });
    const { rows } = await client.query(
      `select distinct table_name from information_schema.columns
       where table_schema = 'public' and column_name = 'organization_id'`,
    );
    return new Set(rows.map((r) => r.table_name).filter((t) => t !== "organizations"));
  } finally {
    await client.close();
  }
}

async function main() {
  const folder = process.argv[2];
  if (!folder) {
    console.error("usage: node scripts/check-queries.mjs <folder written by COVE_SQL_LOG>");
    process.exit(2);
  }
  const statements = readLog(folder);
  const confinedCount = statements.filter((s) => s.confined).length;
  if (confinedCount === 0) {
    console.error(`check-queries: no confined statement in ${folder}: were the tests run with COVE_SQL_LOG?`);
    process.exit(1);
  }
  const found = violations(statements, await tenantTablesOfMigrations());
  for (const v of found) console.error(`${v.origin}: ${v.sql.slice(0, 300)}`);
  if (found.length > 0) {
    console.error(
      `check-queries: ${found.length} statement(s) read or write an organization's table without organization_id`,
    );
    process.exit(1);
  }
  console.log(`check-queries: ${confinedCount} confined statements of ${statements.length} name organization_id`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
