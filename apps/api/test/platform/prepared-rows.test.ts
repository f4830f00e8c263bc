/**
 * preparedRows prepares a statement once and then only executes it. On the embedded database the values travel as SQL
 * literals (EXECUTE takes no protocol parameters), so every string must come back exactly as it went in.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { filled, preparedRows, queryRows, valuePlannedRows } from "../../src/platform/db.ts";
import { naughtyStrings, testAppForFile } from "../helpers.ts";

const naughty = naughtyStrings().filter((s) => !s.includes("\u0000"));

const t = testAppForFile();

describe("preparedRows", () => {
  it("reads every value back unchanged: naughty strings, quotes, backslashes, numbers, booleans, null, dates", async () => {
    const when = new Date("2026-11-23T10:20:30.456Z");
    for (const s of [...naughty, "it's", "\\'; drop table tickets; --", "\\\\'", "E'x'", "$1", "'"]) {
      const [row] = await preparedRows<{ v: string }>(t.database.db, sql`select ${s}::text as v`);
      const [viaParameters] = await queryRows<{ v: string }>(t.database.db, sql`select ${s}::text as v`);
      expect(row?.v, JSON.stringify(s)).toBe(viaParameters?.v);
      // PGlite decodes a text value that starts with a byte order mark without it, whichever way it was sent.
      if (!s.startsWith("\ufeff")) expect(row?.v, JSON.stringify(s)).toBe(s);
    }
    const [row] = await preparedRows<{ n: number; b: boolean; z: null; d: Date | string }>(
      t.database.db,
      sql`select ${-42.5}::float8 as n, ${true}::boolean as b, ${null}::text as z, ${when}::timestamptz as d`,
    );
    expect(row).toMatchObject({ n: -42.5, b: true, z: null });
    expect(new Date(row?.d ?? "").toISOString()).toBe(when.toISOString());
  });

  it("fills a statement built once with each call's own values, the same answer as the statement built with them", async () => {
    const template = sql`select ${sql.placeholder("a")}::text || ${"-"}::text || ${sql.placeholder("b")}::int as v,
      ${sql.placeholder("a")}::text = ${sql.placeholder("a")}::text as same`;
    for (const run of [preparedRows, valuePlannedRows]) {
      for (const [a, b] of [
        ["first", 1],
        ["second", 2],
        ["it's \\ 'third'", 3],
      ] as const) {
        const [row] = await run<{ v: string; same: boolean }>(t.database.db, filled(template, { a, b }));
        const [built] = await queryRows<{ v: string; same: boolean }>(
          t.database.db,
          sql`select ${a}::text || ${"-"}::text || ${b}::int as v, ${a}::text = ${a}::text as same`,
        );
        expect(row).toEqual(built);
        expect(row).toEqual({ v: `${a}-${b}`, same: true });
      }
    }
  });

  it("answers every caller when many ask for the same new statement at once (it is prepared once)", async () => {
    const marker = `first use ${Date.now()}`;
    const rows = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        preparedRows<{ v: string }>(t.database.db, sql`select ${marker}::text || ${i}::text as v`),
      ),
    );
    expect(rows.map((r) => r[0]?.v)).toEqual(Array.from({ length: 8 }, (_, i) => `${marker}${i}`));
  });

  it("runs the same statement many times, also inside transactions that roll back", async () => {
    for (let i = 0; i < 3; i++) {
      await t.database.db
        .transaction(async (tx) => {
          const [row] = await preparedRows<{ v: number }>(tx, sql`select ${i}::int + 1 as v`);
          expect(row?.v).toBe(i + 1);
          tx.rollback();
        })
        .catch(() => undefined);
    }
    const [row] = await preparedRows<{ v: number }>(t.database.db, sql`select ${41}::int + 1 as v`);
    expect(row?.v).toBe(42);
  });
});
