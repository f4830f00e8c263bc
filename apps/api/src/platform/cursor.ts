import { UUID_PATTERN } from "@cove/contract/ids.ts";
import { type SQL, sql } from "drizzle-orm";
import { AppError } from "./errors.ts";

/**
 * Cursor pagination for the lists that page (tickets, contacts, articles, a customer's tickets): a cursor holds the
 * sort key of the last row shown, and the next page is the rows that come after it in the list's order (keyset
 * pagination). Unlike an offset, a row added or moved to the top while a program walks the list shifts nothing, and
 * a deep page reads no skipped rows. The values travel as PostgreSQL prints them (timestamps to the microsecond), so
 * the comparison is exact.
 */

/** One column of a list's order. Only these shapes occur: descending not null, ascending (nulls last). */
export interface SortKey {
  column: SQL;
  /** The value's type, to cast the cursor's text back (e.g. "timestamptz", "integer", "real", "uuid"). */
  type: string;
  desc: boolean;
}

export type CursorValue = string | null;

/** A cursor for the list named list (with its sort, e.g. "tickets:updated"), after the row whose keys are values. */
export function encodeCursor(list: string, values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify([list, ...values])).toString("base64url");
}

const badCursor = () =>
  new AppError(
    "BAD_REQUEST",
    "cursor is not one this list gave out: start again without it, or pass next_cursor as given.",
  );

/** What each type's value looks like as to_json prints it; a cursor's values are checked before any cast. */
const SHAPES: Record<string, RegExp> = {
  timestamptz: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/,
  integer: /^-?\d{1,10}$/,
  real: /^-?(\d+(\.\d+)?([eE][+-]?\d+)?|Infinity|NaN)$/,
  uuid: UUID_PATTERN,
};

/** The values of a cursor this list gave out, or a 400 (another list's, another order's, or not a cursor). */
export function decodeCursor(list: string, cursor: string, keys: readonly SortKey[]): CursorValue[] {
  const values = parseCursor(list, cursor, keys.length);
  keys.forEach((key, i) => {
    const value = values[i] ?? null;
    const shape = SHAPES[key.type];
    if (!shape) throw new Error(`No cursor shape for ${key.type}`);
    // Only an ascending key may be empty (nulls last); a descending one is never null.
    if (value === null ? key.desc : !shape.test(value)) throw badCursor();
  });
  return values;
}

function parseCursor(list: string, cursor: string, size: number): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed[0] !== list || parsed.length !== size + 1) throw badCursor();
  const values = parsed.slice(1);
  if (!values.every((v) => v === null || (typeof v === "string" && v.length <= 100))) throw badCursor();
  return values as CursorValue[];
}

const castTo = (key: SortKey, value: string) => sql`${value}::${sql.raw(key.type)}`;

/** "The row comes after the cursor's row" in the order keys describe, as a condition (true/false on equal keys). */
export function after(keys: readonly SortKey[], values: readonly CursorValue[]): SQL {
  // Every key descending and not null: a row comparison, which an index in that order answers as a range.
  if (keys.every((k) => k.desc) && values.every((v) => v !== null)) {
    const columns = sql.join(
      keys.map((k) => k.column),
      sql`, `,
    );
    const cursor = sql.join(
      keys.map((k, i) => castTo(k, values[i] as string)),
      sql`, `,
    );
    return sql`(${columns}) < (${cursor})`;
  }
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => {
      const v = values[j] ?? null;
      return v === null ? sql`${k.column} is null` : sql`${k.column} = ${castTo(k, v)}`;
    });
    const v = values[i] ?? null;
    // Ascending with nulls last: nothing comes after a null but other nulls (ordered by the next keys).
    const beyond =
      v === null
        ? sql`false`
        : key.desc
          ? sql`${key.column} < ${castTo(key, v)}`
          : sql`(${key.column} > ${castTo(key, v)} or ${key.column} is null)`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql`(${sql.join(branches, sql` or `)})`;
}

/** A timestamp, a number or any value as the cursor keeps it: exactly as PostgreSQL prints it (to_json). */
export const cursorText = (column: SQL) => sql<string | null>`(to_json(${column}) #>> '{}')`;
