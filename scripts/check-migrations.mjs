#!/usr/bin/env node
// Expand/contract (docs/decisions/2026-11-29-running-several-instances.md, docs/deploy.md): during a rolling upgrade the
// new version's migrations run while the old version still serves, so a migration must leave the schema the old code
// uses working. This check reads every migration newer than 0069 (the rule starts there) and flags what breaks running
// code: dropping or renaming a table or column, changing a column's type, making a column NOT NULL, and adding a NOT
// NULL column without a default. Such a step ("contract") belongs to a later release, once no running version uses
// what it removes; it then carries a line `-- contract: <why it is safe now>` and passes.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The first migration the rule applies to (0069 and earlier were written before it). */
export const FIRST_CHECKED = 70;

const RULES = [
  [/\bDROP\s+COLUMN\b/i, "drops a column"],
  [/\bDROP\s+TABLE\b/i, "drops a table"],
  [/\bRENAME\s+(?:COLUMN\s+)?\S+\s+TO\b|\bRENAME\s+TO\b/i, "renames a table or column"],
  [/\bALTER\s+COLUMN\s+\S+\s+(?:SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bALTER\s+COLUMN\s+\S+\s+SET\s+NOT\s+NULL\b/i, "makes a column NOT NULL"],
];

/** What in one migration's SQL the running version would not survive (empty when nothing, or marked contract). */
export function problemsOf(text) {
  if (/^--\s*contract:\s*\S/im.test(text)) return [];
  const problems = [];
  // Comments aside: a comment may say anything.
  const sql = text.replace(/--.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
  for (const statement of sql.split(/;|-->\s*statement-breakpoint/)) {
    for (const [pattern, what] of RULES) if (pattern.test(statement)) problems.push(`${what}: ${oneLine(statement)}`);
    if (/\bADD\s+COLUMN\b/i.test(statement) && /\bNOT\s+NULL\b/i.test(statement) && !/\bDEFAULT\b/i.test(statement)) {
      problems.push(`adds a NOT NULL column without a default: ${oneLine(statement)}`);
    }
  }
  return problems;
}

const oneLine = (statement) => statement.replace(/\s+/g, " ").trim().slice(0, 160);

/** Every checked migration's problems, by file name. */
export function checkFolder(folder) {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const number = Number(/^(\d{4})_.*\.sql$/.exec(name)?.[1]);
    if (!Number.isInteger(number) || number < FIRST_CHECKED) continue;
    for (const problem of problemsOf(readFileSync(path.join(folder, name), "utf8"))) found.push(`${name}: ${problem}`);
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // A folder of migrations may be named (the tests); the API's own by default.
  const folder = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "../apps/api/src/db/migrations"));
  const found = checkFolder(folder);
  if (found.length > 0) {
    console.error("Migrations the running version would not survive (expand/contract, docs/deploy.md):");
    for (const line of found) console.error(`  ${line}`);
    console.error("Add or widen now; drop, rename or tighten in a later release, marked `-- contract: <why>`.");
    process.exit(1);
  }
  console.log(
    `Migrations: every one from ${String(FIRST_CHECKED).padStart(4, "0")} on keeps the running version working.`,
  );
}
