import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDirs } from "../support/temp-dirs.ts";

/** scripts/check-migrations.mjs: the expand/contract rule on migrations from 0070 on (docs/deploy.md). */

const SCRIPT = path.resolve(import.meta.dirname, "../../../../scripts/check-migrations.mjs");
const dirs = tempDirs("cove-migrations-");
afterAll(() => dirs.removeAll());

function check(files: Record<string, string>) {
  const dir = dirs.fresh();
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: "utf8" });
  return { code: run.status, output: run.stdout + run.stderr };
}

describe("the migration check", () => {
  it("passes the repository's migrations", () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
  });

  it("lets through what the running version survives: new tables, nullable or defaulted columns, indexes", () => {
    const { code, output } = check({
      "0070_expand.sql": [
        'CREATE TABLE "notes" ("id" uuid PRIMARY KEY NOT NULL);',
        '--> statement-breakpoint\nALTER TABLE "tickets" ADD COLUMN "mood" text;',
        '--> statement-breakpoint\nALTER TABLE "tickets" ADD COLUMN "score" integer DEFAULT 0 NOT NULL;',
        "--> statement-breakpoint\nCREATE INDEX tickets_mood ON tickets (organization_id, mood);",
        "-- once no version reads it we will DROP COLUMN mood (a comment says anything)",
      ].join("\n"),
      // Older than the rule: not read.
      "0012_old.sql": 'ALTER TABLE "tickets" DROP COLUMN "legacy";',
    });
    expect(code, output).toBe(0);
  });

  it("refuses drops, renames, type changes and new NOT NULL constraints, naming the file and the statement", () => {
    const { code, output } = check({
      "0070_a.sql": 'ALTER TABLE "tickets" DROP COLUMN "mood";',
      "0071_b.sql": 'ALTER TABLE "tickets" RENAME COLUMN "mood" TO "feeling";',
      "0072_c.sql": 'ALTER TABLE "tickets" ALTER COLUMN "score" SET DATA TYPE bigint;',
      "0073_d.sql": 'ALTER TABLE "tickets" ALTER COLUMN "mood" SET NOT NULL;',
      "0074_e.sql": 'ALTER TABLE "tickets" ADD COLUMN "rank" integer NOT NULL;',
      "0075_f.sql": 'DROP TABLE "notes";',
      "0076_g.sql": 'ALTER TABLE "notes" RENAME TO "memos";',
    });
    expect(code).toBe(1);
    for (const line of [
      "0070_a.sql: drops a column",
      "0071_b.sql: renames a table or column",
      "0072_c.sql: changes a column's type",
      "0073_d.sql: makes a column NOT NULL",
      "0074_e.sql: adds a NOT NULL column without a default",
      "0075_f.sql: drops a table",
      "0076_g.sql: renames a table or column",
    ]) {
      expect(output).toContain(line);
    }
  });

  it("lets a contract step through when it says why it is safe now", () => {
    const { code } = check({
      "0080_contract.sql":
        '-- contract: no version since 1.4 reads tickets.mood\nALTER TABLE "tickets" DROP COLUMN "mood";',
    });
    expect(code).toBe(0);
  });
});
