import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import type { TestApp } from "../helpers.ts";

interface Statement {
  text: string;
  values: unknown[];
}

/** What a piece of work read: the public tables, and the statements PostgreSQL could not explain (should be none). */
export interface Reads {
  tables: string[];
  unexplained: string[];
}

/** The statements of the work being recorded; null when none is. */
let recording: Statement[] | null = null;
/** The request being recorded runs in this context, so statements of other work meanwhile are not counted. */
const requestContext = new AsyncLocalStorage<Statement[]>();

/**
 * Installed on the test app (createTestApp's setup): a request that arrives while work is recorded runs in the
 * recording's context. Fastify goes on from done() synchronously, so the handler and its statements inherit it.
 */
export function recordRequests(app: FastifyInstance): void {
  app.addHook("onRequest", (_req, _reply, done) => {
    const into = recording;
    if (into) requestContext.run(into, done);
    else done();
  });
}

/** Not statements that read: transaction control, settings, statement preparation. */
const NOT_READS = /^\s*(begin|commit|rollback|savepoint|release|set|reset|prepare|deallocate|listen|unlisten)\b/i;

/**
 * Runs work and returns the tables its statements read, asking PostgreSQL (EXPLAIN) rather than guessing from the
 * text, and looking into the SQL functions a plan calls. Only the statements of requests made by work count (the app
 * must have recordRequests installed), not the event consumers and job polls that run meanwhile.
 */
export async function recordStatements(t: TestApp, work: () => Promise<unknown>): Promise<Reads> {
  const statements: Statement[] = [];
  const undo = t.database.kind === "postgres" ? tapPostgres() : tapPglite(pgliteOf(t));
  recording = statements;
  try {
    await work();
  } finally {
    recording = null;
    undo();
  }
  return explain(t, statements);
}

function note(text: unknown, values: unknown) {
  const into = requestContext.getStore();
  if (!into) return;
  const config = typeof text === "object" && text !== null ? (text as { text?: string; values?: unknown[] }) : null;
  const sqlText = config ? config.text : text;
  if (typeof sqlText !== "string") return;
  into.push({ text: sqlText, values: (config?.values ?? (Array.isArray(values) ? values : [])) as unknown[] });
}

function tapPostgres(): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    note(args[0], args[1]);
    return original.apply(this, args);
  };
  return () => {
    proto.query = original;
  };
}

function pgliteOf(t: TestApp): PGlite {
  return (t.database.db as unknown as { session: { client: PGlite } }).session.client;
}

type Runner = Pick<Transaction, "query" | "exec">;

function tapRunner<T extends Runner>(runner: T): T {
  return new Proxy(runner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if ((prop === "query" || prop === "exec") && typeof value === "function") {
        return (...args: unknown[]) => {
          note(args[0], args[1]);
          return value.apply(target, args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function tapPglite(client: PGlite): () => void {
  const original = { query: client.query, exec: client.exec, transaction: client.transaction };
  client.query = ((...args: Parameters<PGlite["query"]>) => {
    note(args[0], args[1]);
    return original.query.apply(client, args);
  }) as PGlite["query"];
  client.exec = ((...args: Parameters<PGlite["exec"]>) => {
    note(args[0], undefined);
    return original.exec.apply(client, args);
  }) as PGlite["exec"];
  client.transaction = (<T>(fn: (tx: Transaction) => Promise<T>) =>
    original.transaction.call(client, (tx: Transaction) => fn(tapRunner(tx)))) as PGlite["transaction"];
  return () => Object.assign(client, original);
}

type PlanNode = { [key: string]: unknown };

function walk(node: unknown, found: { tables: Set<string>; functions: Set<string> }) {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, found);
    return;
  }
  if (!node || typeof node !== "object") return;
  const plan = node as PlanNode;
  if (typeof plan["Relation Name"] === "string" && (plan.Schema === undefined || plan.Schema === "public")) {
    found.tables.add(plan["Relation Name"]);
  }
  if (typeof plan["Function Name"] === "string") found.functions.add(plan["Function Name"]);
  for (const value of Object.values(plan)) if (typeof value === "object") walk(value, found);
}

async function explain(t: TestApp, statements: Statement[]): Promise<Reads> {
  const found = { tables: new Set<string>(), functions: new Set<string>() };
  const unexplained: string[] = [];
  for (const s of statements) {
    if (NOT_READS.test(s.text)) continue;
    try {
      const { rows } = await t.database.executeSql(`EXPLAIN (VERBOSE, FORMAT JSON) ${s.text}`, s.values);
      const plan = rows[0]?.["QUERY PLAN"];
      walk(typeof plan === "string" ? JSON.parse(plan) : plan, found);
    } catch (err) {
      unexplained.push(`${s.text.slice(0, 120)}: ${(err as Error).message}`);
    }
  }
  // A function's body reads tables EXPLAIN does not show: take the public tables named in it.
  if (found.functions.size > 0) {
    const { rows: tables } = await t.database.executeSql(
      "select tablename from pg_tables where schemaname = 'public'",
      [],
    );
    const { rows: bodies } = await t.database.executeSql(
      `select p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname = any($1::text[])`,
      [[...found.functions]],
    );
    for (const { prosrc } of bodies) {
      for (const { tablename } of tables) {
        const name = String(tablename);
        if (new RegExp(`\\b(from|join)\\s+"?${name}"?\\b`, "i").test(String(prosrc))) found.tables.add(name);
      }
    }
  }
  return { tables: [...found.tables].sort(), unexplained };
}
