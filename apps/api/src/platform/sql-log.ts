import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Logger } from "drizzle-orm/logger";

/**
 * The statements a test run executes, for the query rule's check (scripts/check-queries.mjs, CODE_STYLE.md,
 * "Queries"): with COVE_SQL_LOG set to a folder, every distinct statement text this process sends through Drizzle is
 * appended once to a file of its own there. Off (undefined) otherwise: production never writes it.
 */
const logging = Boolean(process.env.COVE_SQL_LOG);
const confinement = new AsyncLocalStorage<boolean>();

/**
 * Runs a confined transaction's work (platform/tenancy.ts) so that the log knows its statements are the ones the rule
 * judges: what runs outside one is the owner role's own work (sign-in, registration, sweeps over every organization)
 * or a test's set-up. Free when the log is off.
 */
export function confined<T>(work: () => Promise<T>): Promise<T> {
  return logging ? confinement.run(true, work) : work();
}

/**
 * For tests of row-level security itself, whose statements leave the organization's filter out on purpose to show
 * that the database confines them anyway: not judged, even inside a confined transaction.
 */
export function withoutTheRule<T>(work: () => Promise<T>): Promise<T> {
  return logging ? confinement.run(false, work) : work();
}

export function sqlLogger(): Logger | undefined {
  const folder = process.env.COVE_SQL_LOG;
  if (!folder) return undefined;
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${process.pid}-${Math.random().toString(36).slice(2, 10)}.sql`);
  const seen = new Set<string>();
  return {
    logQuery(query: string) {
      // Once per text and kind: a text first sent by the owner's own work (registration, say) and later by a confined
      // transaction is judged as confined; keyed by its text alone, the first sending hid the second.
      const mark = confinement.getStore() === true ? "confined" : "owner";
      if (seen.has(`${mark} ${query}`)) return;
      seen.add(`${mark} ${query}`);
      // One statement a record, after a line saying whether a confined transaction sent it and, when the stack shows
      // it, the line of Cove's code that did; a statement's own newlines stay inside it, and the separator cannot
      // occur in SQL text.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 60;
      const stack = new Error().stack ?? "";
      Error.stackTraceLimit = limit;
      appendFileSync(file, `${mark} ${origin(stack)}\n${query}\n\u0000\n`);
    },
  };
}

/** The first frame of the API's own code (outside this module and the database handle) in a stack, or "-". */
function origin(stack: string): string {
  for (const line of stack.split("\n").slice(1)) {
    const at = /\/apps\/api\/src\/(.+?):(\d+):\d+\)?$/.exec(line);
    if (!at || at[1] === "platform/sql-log.ts" || at[1] === "platform/db.ts") continue;
    const fn = /at (?:async )?([\w$.<>]+) \(/.exec(line)?.[1] ?? "?";
    return `${at[1]}:${at[2]} ${fn}`;
  }
  return "-";
}
