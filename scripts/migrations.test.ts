import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The expand/contract rule of docs/deploy.md (Upgrades): during a rolling restart the previous release's code runs on
// the new schema, so a migration may only expand it. One that contracts (drops, renames, tightens) comes a release
// after the code stopped using what it removes, and says so in its first line: `-- contract: <why it is safe now>`.
// Checked on every migration after the last one that existed when the rule was written.

const MIGRATIONS = path.resolve(import.meta.dirname, "../apps/api/src/db/migrations");
/** The last migration before the rule: the ones up to it were applied in one go, never during a rolling restart. */
const RULE_STARTS_AFTER = 69;

/** What old code cannot live with, statement by statement. */
const CONTRACTING: [RegExp, string][] = [
  [/\bDROP\s+(TABLE|COLUMN|VIEW|TYPE|SCHEMA)\b/i, "drops something old code may still use"],
  [/\bRENAME\b/i, "renames something old code uses by its old name"],
  [/\bSET\s+NOT\s+NULL\b/i, "makes a column required that old code may leave empty"],
  [/\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type under old code"],
  [/\bDROP\s+DEFAULT\b/i, "drops a default old code relies on"],
  [
    /\bADD\s+COLUMN\b(?![^;]*\bDEFAULT\b)[^;]*\bNOT\s+NULL\b/i,
    "adds a required column without a default (old code's inserts fail)",
  ],
];

/** The contracting statements of a migration that does not declare itself a contract. */
function contractions(sql: string): string[] {
  if (/^\s*--\s*contract:\s*\S/i.test(sql)) return [];
  const found: string[] = [];
  for (const statement of sql.replace(/--[^\n]*/g, "").split(/;|--> statement-breakpoint/)) {
    for (const [pattern, why] of CONTRACTING) {
      if (pattern.test(statement)) found.push(`${statement.trim().replace(/\s+/g, " ").slice(0, 120)}: ${why}`);
    }
  }
  return found;
}

describe("migrations follow expand/contract (docs/deploy.md)", () => {
  it("finds contracting statements, and lets a declared contract through", () => {
    expect(contractions('ALTER TABLE "tickets" DROP COLUMN "legacy";')).toHaveLength(1);
    expect(contractions('ALTER TABLE "tickets" RENAME COLUMN "a" TO "b";')).toHaveLength(1);
    expect(contractions('ALTER TABLE "tickets" ALTER COLUMN "x" SET NOT NULL;')).toHaveLength(1);
    expect(contractions('ALTER TABLE "tickets" ADD COLUMN "x" text NOT NULL;')).toHaveLength(1);
    expect(contractions('ALTER TABLE "tickets" ADD COLUMN "x" text DEFAULT \'\' NOT NULL;')).toEqual([]);
    expect(contractions('ALTER TABLE "tickets" ADD COLUMN "x" text;\nCREATE INDEX "i" ON "tickets" ("x");')).toEqual(
      [],
    );
    expect(
      contractions('-- contract: 0.4 stopped reading "legacy"\nALTER TABLE "tickets" DROP COLUMN "legacy";'),
    ).toEqual([]);
  });

  it("every migration added since the rule only expands, or declares itself a contract", () => {
    const added = readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith(".sql") && Number.parseInt(f, 10) > RULE_STARTS_AFTER)
      .sort();
    const problems = added.flatMap((file) =>
      contractions(readFileSync(path.join(MIGRATIONS, file), "utf8")).map((p) => `${file}: ${p}`),
    );
    expect(problems).toEqual([]);
  });
});
