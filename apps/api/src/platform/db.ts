import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type ExtractTablesWithRelations, fillPlaceholders, type SQL, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzleNodePg, NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { rememberFileSizes } from "./pglite-file-sizes.ts";
import { confined, sqlLogger } from "./sql-log.ts";

/** The non-superuser role whose row-level security policies confine every query to app.org_id. */
export const REQUEST_ROLE = "cove_app";
/** The role of a contact's transactions: fewer tables, and only the contact's own rows (migration 0016). */
export const CONTACT_ROLE = "cove_contact";

// The tables are imported where they are used (db/schema/<domain>.ts); the relational query API is not used, so the
// handles carry no schema.
type NoSchema = Record<string, never>;
export type Db = PgDatabase<PgQueryResultHKT, NoSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
/** Either the whole database or a transaction: what services and queries accept. */
export type Queryable = Db | Tx;

/** Raw SQL on the database's own client, for libraries that bring their SQL as text (the job queue). */
export interface SqlResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<SqlResult>;

export interface Database {
  db: Db;
  kind: "embedded" | "postgres";
  /** Outside any transaction: never call it from inside one (on PGlite that waits forever for the transaction). */
  executeSql: ExecuteSql;
  /**
   * LISTENs to a channel: onMessage gets each payload NOTIFYed on it after the notifying transaction commits, from
   * this process or any other on the same database. onReconnect is called when the connection was lost and is back
   * (notifications sent meanwhile were missed). Resolves to a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /**
   * How many of the migrations this build carries the database has not applied (0: current). Migrations a newer
   * instance applied that this build does not know do not count: they are written to be tolerated (expand/contract,
   * docs/deploy.md). Fails when the database does not answer.
   */
  migrationsBehind(): Promise<number>;
  /**
   * Runs work while holding the advisory lock named key (PostgreSQL, on a connection of its own), so instances starting
   * at once take turns at it; on the embedded database (one process) it simply runs.
   */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** The request pool's connections at work and queries waiting for one (PostgreSQL; PGlite has one connection). */
  poolCounts?(): { inUse: number; waiting: number };
  close(): Promise<void>;
}

export type DatabaseTarget =
  | {
      kind: "postgres";
      /** Request traffic: PostgreSQL itself, or a pooler in front of it (PgBouncer in transaction mode). */
      url: string;
      /**
       * A connection straight to PostgreSQL, for what must keep one session: LISTEN, the session-level advisory locks
       * of migrating and starting the job queue. url when absent. When it differs from url, requests are taken to go
       * through a transaction pooler: statements are not prepared under names (a name lives in one server session).
       */
      directUrl?: string;
      /** Tests: migrate with these migrations instead of the bundled ones (an older build's, say). */
      migrationsFolder?: string;
    }
  | {
      kind: "embedded";
      /** Tests: migrate with these migrations instead of the bundled ones (an older build's, say). */
      migrationsFolder?: string;
      /** null: in memory. */
      dir: string | null;
      /**
       * In memory only: start as a copy of this data directory (from migratedTemplate) rather than creating a new
       * cluster and migrating it, which takes about 2 seconds more. The tests start each database this way.
       */
      template?: Blob;
    };

/** The migrations sit beside the bundle in production and in src/db during development and tests. */
function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, "migrations"), path.join(here, "../db/migrations")];
  const found = candidates.find((c) => existsSync(path.join(c, "meta/_journal.json")));
  if (!found) throw new Error(`Database migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** The hashes of the migrations this build carries, read once (drizzle records each applied one by its hash). */
let bundledHashes: string[] | null = null;
function bundledMigrationHashes(): string[] {
  bundledHashes ??= readMigrationFiles({ migrationsFolder: migrationsFolder() }).map((m) => m.hash);
  return bundledHashes;
}

/** Drizzle's record of applied migrations (its default schema and table on both databases). */
const APPLIED_MIGRATIONS = `select hash from drizzle.__drizzle_migrations`;

async function countBehind(executeSql: ExecuteSql): Promise<number> {
  const bundled = bundledMigrationHashes();
  let applied: Set<string>;
  try {
    applied = new Set((await executeSql(APPLIED_MIGRATIONS)).rows.map((r) => String(r.hash)));
  } catch (err) {
    // 42P01, 3F000: no table or schema of applied migrations: nothing was applied.
    const code = (err as { code?: string }).code;
    if (code === "42P01" || code === "3F000") return bundled.length;
    throw err;
  }
  return bundled.filter((hash) => !applied.has(hash)).length;
}

/** The test run's statement log (platform/sql-log.ts), one per process; undefined unless COVE_SQL_LOG is set. */
let statementLog: { logger: ReturnType<typeof sqlLogger> } | null = null;
function logger() {
  statementLog ??= { logger: sqlLogger() };
  return statementLog.logger;
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const folder = target.migrationsFolder ?? migrationsFolder();
  if (target.kind === "postgres") {
    const directUrl = target.directUrl ?? target.url;
    await migrateLocked(directUrl, folder);
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    const db = drizzleNodePg(pool, { logger: logger() });
    if (directUrl !== target.url) unnamedStatements.add((db as unknown as DrizzleInternals).dialect);
    const executeSql: ExecuteSql = async (text, values) => {
      const result = await pool.query(text, values);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    };
    const listen: Database["listen"] = (channel, onMessage, onReconnect) =>
      listenOnPostgres(directUrl, channel, onMessage, onReconnect);
    return {
      db,
      kind: "postgres",
      executeSql,
      listen,
      migrationsBehind: () => countBehind(executeSql),
      exclusive: (key, work) => withSessionLock(directUrl, key, () => work()),
      poolCounts: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (target.dir) {
    mkdirSync(target.dir, { recursive: true });
    client = new PGlite(target.dir);
  } else {
    client = target.template ? new PGlite({ loadDataDir: target.template }) : new PGlite();
  }
  await client.waitReady;
  // On disk only: an in-memory database's filesystem answers sizes without a system call.
  if (target.dir) rememberFileSizes(client);
  const db = drizzlePglite(client, { logger: logger() });
  await migratePglite(db, { migrationsFolder: folder });
  // PGlite delivers a NOTIFY to its own listeners, in process, when the notifying transaction commits.
  const listen: Database["listen"] = async (channel, onMessage) => {
    const stop = await client.listen(channel, onMessage);
    return async () => {
      if (!client.closed) await stop();
    };
  };
  const executeSql = pgliteExecutor(client);
  return {
    db,
    kind: "embedded",
    executeSql,
    listen,
    migrationsBehind: () => countBehind(executeSql),
    exclusive: (_key, work) => work(),
    close: () => client.close(),
  };
}

/**
 * Runs work while this process holds a session-level advisory lock named key, on a connection of its own (given to
 * work), so instances doing the same at the same time take turns. Ending the connection releases the lock whatever
 * happens in between.
 */
async function withSessionLock<T>(url: string, key: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [key]);
    const result = await work(client);
    await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]);
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Instances started at once on one database migrate it once: they take turns (an advisory lock), and the later ones
 * find nothing left to apply. (The embedded database has one process per data directory: platform/data-dir-lock.ts.)
 */
function migrateLocked(url: string, folder: string): Promise<void> {
  return withSessionLock(url, "cove:migrations", (client) =>
    migrateNodePg(drizzleNodePg(client), { migrationsFolder: folder }),
  );
}

/** An embedded database's data directory, migrated and empty, to start in-memory databases from (openDatabase). */
export async function migratedTemplate(): Promise<Blob> {
  const client = new PGlite();
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() });
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

/**
 * A connection of its own that LISTENs (a pooled one would be handed to requests). When it fails it is opened again,
 * with a growing wait, and onReconnect says that notifications may have been missed meanwhile.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let wait = 250;
  const quoted = `"${channel.replaceAll('"', '""')}"`;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onMessage(msg.payload);
    });
    next.on("error", () => reopen());
    next.on("end", () => reopen());
    await next.connect();
    await next.query(`LISTEN ${quoted}`);
    client = next;
    wait = 250;
  };

  const reopen = () => {
    if (stopped || retry) return;
    const old = client;
    client = null;
    old?.removeAllListeners("end");
    void old?.end().catch(() => {});
    retry = setTimeout(async () => {
      retry = null;
      try {
        await connect();
        onReconnect?.();
      } catch {
        wait = Math.min(wait * 2, 10_000);
        reopen();
      }
    }, wait);
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const last = client;
    client = null;
    last?.removeAllListeners("end");
    await last?.end().catch(() => {});
  };
}

/**
 * PGlite's query() takes one statement with parameters; exec() takes a script (several statements, no parameters),
 * which is how libraries send their schema and their locked maintenance blocks (BEGIN; ...; COMMIT;).
 */
function pgliteExecutor(client: PGlite): ExecuteSql {
  return async (text, values) => {
    if (values && values.length > 0) {
      const result = await client.query<Record<string, unknown>>(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    // A script that fails between its own BEGIN and COMMIT would leave the single connection inside an aborted
    // transaction, failing every later query. Inside transaction() PGlite rolls back before anyone else gets the
    // connection; the script's own BEGIN and COMMIT only draw warnings there.
    const results = await client.transaction((tx) => tx.exec(text));
    const last = results.at(-1);
    return { rows: (last?.rows ?? []) as Record<string, unknown>[], rowCount: last?.affectedRows ?? 0 };
  };
}

/** True when err (or what it wraps) is PostgreSQL's unique_violation, optionally on a named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505") return !constraint || name === constraint || Boolean(message?.includes(constraint));
  }
  return false;
}

/** Runs raw SQL and returns its rows; both drivers answer { rows }. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** The pieces of Drizzle that run a raw statement under a name (not in its public types). */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    /** The driver's handle: node-postgres' pool or client, or PGlite (or its transaction), which has exec. */
    client: { exec?: unknown; query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(): Promise<{ rows: unknown[] }> };
  };
}

/**
 * Statements prepared (or being prepared) on the embedded database, by the Drizzle dialect its handles share. The
 * promise is shared: requests that ask for the same new statement at once prepare it once, not each (a second PREPARE
 * of a name fails).
 */
const preparedOnPglite = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * The dialects of PostgreSQL handles whose requests go through a transaction pooler (PgBouncer): a prepared statement's
 * name belongs to one server session, and the pooler hands each transaction whichever session is free, so there
 * statements are sent unnamed (parsed each time).
 */
const unnamedStatements = new WeakSet<object>();

/**
 * queryRows for the statements every request runs: each is prepared once per connection under a name derived from
 * its text, and then only executed, because planning them costs about as much as running them on PostgreSQL, and
 * several times more on the embedded database (PostgreSQL compiled to WebAssembly). On PostgreSQL the name goes with
 * the protocol's own Parse message; PGlite has no such option, so there it is an SQL PREPARE, then EXECUTE.
 */
export async function preparedRows<T>(db: Queryable, query: Statement): Promise<T[]> {
  const { dialect, session } = db as unknown as DrizzleInternals;
  const built = buildStatement(dialect, query);
  const name = built.name;
  if (typeof session.client.exec !== "function") {
    // Behind a transaction pooler: sent unnamed, parsed and planned each time.
    const as = unnamedStatements.has(dialect) ? undefined : name;
    return (await session.prepareQuery(built, undefined, as as string, false).execute()).rows as T[];
  }
  logger()?.logQuery(built.sql, built.params);
  let prepared = preparedOnPglite.get(dialect);
  if (!prepared) {
    prepared = new Map();
    preparedOnPglite.set(dialect, prepared);
  }
  let preparing = prepared.get(name);
  if (!preparing) {
    // Not transactional: it stays prepared whatever becomes of the transaction it ran in.
    const statements = prepared;
    preparing = session.client.query(`PREPARE ${name} AS ${built.sql}`).catch((err: unknown) => {
      statements.delete(name);
      throw err;
    });
    prepared.set(name, preparing);
  }
  await preparing;
  // EXECUTE takes no protocol parameters, so the values go in as literals (typed by the prepared statement).
  const args = built.params.map(literal).join(", ");
  const results = (await (session.client.exec as (text: string) => Promise<{ rows: unknown[] }[]>)(
    `EXECUTE ${name}${args ? `(${args})` : ""}`,
  )) as { rows: unknown[] }[];
  return (results.at(-1)?.rows ?? []) as T[];
}

/** The name a statement is prepared under: derived from its text, so every path that prepares it shares it. */
function statementName(text: string): string {
  return `cove_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
}

/**
 * A statement whose text never changes, with its values apart: template is built with sql.placeholder() where the
 * values go, once (as a module's constant), and values names them. Its text and name are worked out on its first use
 * and kept (buildStatement), where a statement built anew for each request walks Drizzle's whole tree of fragments
 * and hashes its text each time (a list page's statement: about 6% of the app's CPU under load, docs/benchmarks.md).
 * The text is the same as the template's with the values in place (each placeholder is a parameter, as each value
 * is), so it is prepared under the same name either way.
 */
export interface Filled {
  template: SQL;
  values: Record<string, unknown>;
}
/** What preparedRows, valuePlannedRows and transactionFrom run: a statement built for this call, or a Filled one. */
export type Statement = SQL | Filled;

export const filled = (template: SQL, values: Record<string, unknown>): Filled => ({ template, values });

interface BuiltStatement {
  sql: string;
  params: unknown[];
  name: string;
}

/** The templates' texts, names and parameters (placeholders), by Drizzle dialect and template. */
const builtTemplates = new WeakMap<object, WeakMap<SQL, BuiltStatement>>();

function buildStatement(dialect: DrizzleInternals["dialect"], query: Statement): BuiltStatement {
  if (!("template" in query)) {
    const built = dialect.sqlToQuery(query);
    return { sql: built.sql, params: built.params, name: statementName(built.sql) };
  }
  let templates = builtTemplates.get(dialect);
  if (!templates) {
    templates = new WeakMap();
    builtTemplates.set(dialect, templates);
  }
  let built = templates.get(query.template);
  if (!built) {
    const { sql: text, params } = dialect.sqlToQuery(query.template);
    built = { sql: text, params, name: statementName(text) };
    templates.set(query.template, built);
  }
  return { sql: built.sql, params: fillPlaceholders(built.params, query.values), name: built.name };
}

/** What a pipeline sends through node-postgres' connection (its protocol messages, not in its public types). */
interface ProtocolConnection {
  stream: { cork(): void; uncork(): void };
  parse(message: { text: string; name: string }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

/** node-postgres' own writing of a statement's messages (Query.prepare; not in its public types). */
type PreparingQuery = pg.Query & {
  prepare(connection: pg.Connection): void;
  _getRows(connection: pg.Connection, rows?: number): void;
};

/** A statement without rows or parameters (BEGIN, COMMIT) as Parse/Bind/Execute, for the middle of a pipeline. */
function writeCommand(wire: ProtocolConnection, text: string) {
  wire.parse({ text, name: "" });
  wire.bind({ portal: "", statement: "", values: [] });
  wire.execute({ portal: "", rows: 0 });
}

/**
 * Statements sent to PostgreSQL as one extended-protocol pipeline with a single Sync, written to the socket at once:
 * BEGIN (when begin), the statements of before, this query's own statement, then COMMIT (when commit), then Sync.
 * Each statement is written as node-postgres writes it (Parse the first time on this connection when it is named,
 * Bind, Describe, Execute). PostgreSQL runs the messages in turn; after an error it skips every message up to the
 * Sync, so nothing runs after a statement that failed: not the statements after it, not the COMMIT (a BEGIN inside the
 * pipeline's implicit transaction makes it an ordinary transaction block, left open, or aborted, after the Sync).
 * The answer holds every result in turn, BEGIN's and COMMIT's too. After an error the connection must be closed, not
 * given back: which of its statements got parsed is not known.
 */
class PipelinedQuery extends pg.Query {
  constructor(config: pg.QueryConfig, pipeline: { begin: boolean; before: pg.QueryConfig[]; commit: boolean }) {
    super(config);
    const self = this as unknown as PreparingQuery;
    if (pipeline.commit) {
      // node-postgres writes Execute and then Sync here (its _getRows, for a query read in one go, as every one is).
      self._getRows = (connection) => {
        const wire = connection as unknown as ProtocolConnection;
        wire.execute({ portal: "", rows: 0 });
        writeCommand(wire, "COMMIT");
        wire.sync();
      };
    }
    this.submit = (connection: pg.Connection): Error | null => {
      const wire = connection as unknown as ProtocolConnection;
      wire.stream.cork();
      try {
        if (pipeline.begin) writeCommand(wire, "BEGIN");
        for (const config of pipeline.before) {
          // Its messages as node-postgres writes them (which also records a named statement as sent on this
          // connection), without the Sync: the pipeline's one Sync comes last.
          const step = new pg.Query(config) as PreparingQuery;
          step._getRows = (c) => (c as unknown as ProtocolConnection).execute({ portal: "", rows: 0 });
          step.prepare(connection);
        }
        // This statement's own messages and the Sync. An error it returns (the values are not an array...) fails the
        // query, and the caller closes the connection.
        return (pg.Query.prototype as unknown as { submit(c: pg.Connection): Error | null }).submit.call(
          this,
          connection,
        );
      } finally {
        wire.stream.uncork();
      }
    };
  }
}

/** Sends a pipeline on a connection of its own; the results in turn (one statement's alone is not an array). */
function sendPipeline(
  client: pg.PoolClient,
  config: pg.QueryConfig,
  pipeline: ConstructorParameters<typeof PipelinedQuery>[1],
): Promise<pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    client.query(
      new PipelinedQuery(
        {
          ...config,
          // Always Parse/Bind/Execute: a statement without values or name would otherwise go as a simple Query message.
          queryMode: "extended",
          callback: (err: Error | null, result: pg.QueryResult | pg.QueryResult[]) =>
            err ? reject(err) : resolve(Array.isArray(result) ? result : [result]),
        } as pg.QueryConfig,
        pipeline,
      ),
    );
  });
}

/** What a transaction on PostgreSQL needs of Drizzle's handle: its dialect, pool and options. */
function postgresParts(db: Db) {
  const { dialect, session } = db as unknown as DrizzleInternals;
  const pool = session.client as unknown as pg.Pool;
  const options = (session as unknown as { options: ConstructorParameters<typeof NodePgSession>[3] }).options;
  return { dialect, pool, options };
}

/** Whether a handle's transactions go as Drizzle's: the embedded database, or statements unnamed behind a pooler. */
function plainTransactions(db: Db): boolean {
  const { dialect, session } = db as unknown as DrizzleInternals;
  return typeof session.client.exec === "function" || unnamedStatements.has(dialect);
}

/**
 * A transaction whose first statement (the one that confines it: platform/tenancy.ts) reaches PostgreSQL in the same
 * round trip as its BEGIN (a PipelinedQuery), where Drizzle's transaction sends BEGIN and waits for its answer first:
 * one write and one round trip fewer per request. The statement is prepared under the same name as preparedRows would
 * give it, so it is planned once per connection as before. fn gets the transaction and the statement's rows; COMMIT
 * or ROLLBACK follow as in Drizzle's transaction. If the BEGIN or the statement fails, the connection is closed
 * rather than given back (whatever state the error left it in, a fresh one replaces it). On the embedded database
 * (no round trips to save) and behind a transaction pooler (statements go unnamed there) it is Drizzle's transaction
 * with the statement through preparedRows.
 */
export async function transactionFrom<R, T>(
  db: Db,
  first: Statement,
  fn: (tx: Tx, rows: R[]) => Promise<T>,
): Promise<T> {
  if (plainTransactions(db)) return db.transaction(async (tx) => fn(tx, await preparedRows<R>(tx, first)));
  const { dialect, pool, options } = postgresParts(db);
  const built = buildStatement(dialect, first);
  const client = await pool.connect();
  let rows: R[];
  try {
    // Logged by the handle's own logger, as Drizzle logs the statements it sends (the statement log, a bench's record).
    options?.logger?.logQuery(built.sql, built.params);
    const results = await sendPipeline(
      client,
      { name: built.name, text: built.sql, values: built.params },
      { begin: true, before: [], commit: false },
    );
    rows = (results.at(-1)?.rows ?? []) as R[];
  } catch (err) {
    client.release(err instanceof Error ? err : true);
    throw err;
  }
  const tx = new NodePgTransaction(
    dialect as never,
    new NodePgSession(client as never, dialect as never, undefined, options),
    undefined,
  ) as unknown as Tx;
  // As Drizzle's transaction: COMMIT after fn, ROLLBACK when fn or the COMMIT failed; a connection that cannot even
  // roll back is closed rather than given back.
  let broken = false;
  try {
    const result = await fn(tx, rows);
    await tx.execute(sql`commit`);
    return result;
  } catch (err) {
    try {
      // A COMMIT that failed has ended the transaction already: the ROLLBACK then only draws a warning.
      await client.query("rollback");
    } catch {
      broken = true;
    }
    throw err;
  } finally {
    client.release(broken || undefined);
  }
}

/**
 * A transaction whose whole work is one read, in one round trip on PostgreSQL: BEGIN, the statement that confines it
 * (first, as transactionFrom's), the read and COMMIT in one pipeline (a PipelinedQuery), where a request's
 * transaction otherwise waits for its BEGIN and confining statement, then for its work, then for COMMIT.
 *
 * The read is sent before first's answer is known, so it runs whatever first answered: first must confine the
 * transaction (the request role and the organization) unconditionally, as tenancy.ts's statements do, and the caller
 * must check first's answer (the session still counts, the role allows the route) before it uses one row of the read.
 * A read commits nothing, and rows it was not entitled to never leave the process.
 *
 * The read is prepared (as preparedRows), or planned with its values each time (byValue, as valuePlannedRows); its
 * times stay text, as Drizzle's parsers leave them. The read is logged as a confined transaction's statement (the
 * statement log, platform/sql-log.ts). If anything fails, nothing was committed, and on PostgreSQL the connection is
 * closed rather than given back. On the embedded database and behind a transaction pooler it is Drizzle's transaction
 * with the two statements in turn.
 */
export async function confinedRead<R, T>(
  db: Db,
  first: Statement,
  read: Statement,
  byValue: boolean,
): Promise<{ first: R[]; rows: T[] }> {
  if (plainTransactions(db)) {
    return db.transaction(async (tx) => {
      const confining = await preparedRows<R>(tx, first);
      const rows = await confined(() => (byValue ? valuePlannedRows<T>(tx, read) : preparedRows<T>(tx, read)));
      return { first: confining, rows };
    });
  }
  const { dialect, pool, options } = postgresParts(db);
  const firstBuilt = buildStatement(dialect, first);
  const readBuilt = buildStatement(dialect, read);
  // Drizzle's own query config for the read (its parsers: times stay text, as every other statement reads them).
  const { session } = db as unknown as DrizzleInternals;
  const prepared = session.prepareQuery(
    readBuilt,
    undefined,
    byValue ? (undefined as unknown as string) : readBuilt.name,
    false,
  );
  const config = (prepared as unknown as { rawQueryConfig: pg.QueryConfig }).rawQueryConfig;
  options?.logger?.logQuery(firstBuilt.sql, firstBuilt.params);
  await confined(async () => logger()?.logQuery(readBuilt.sql, readBuilt.params));
  const client = await pool.connect();
  try {
    const results = await sendPipeline(
      client,
      { ...config, values: readBuilt.params },
      {
        begin: true,
        before: [{ name: firstBuilt.name, text: firstBuilt.sql, values: firstBuilt.params }],
        commit: true,
      },
    );
    client.release();
    // BEGIN, first, the read, COMMIT.
    return { first: (results[1]?.rows ?? []) as R[], rows: (results[2]?.rows ?? []) as T[] };
  } catch (err) {
    client.release(err instanceof Error ? err : true);
    throw err;
  }
}

/**
 * preparedRows for a statement whose best plan depends on its values (a filter that matches a few rows of one
 * organization and most of another's): on PostgreSQL it goes unnamed, so it is planned with its values every time,
 * where a prepared one soon runs a generic plan costed for an average organization. The embedded database keeps it
 * prepared: planning there costs several times more, and its one process serves few organizations, in practice one,
 * whose sizes a generic plan then matches (docs/benchmarks.md, issue 34).
 */
export async function valuePlannedRows<T>(db: Queryable, query: Statement): Promise<T[]> {
  const { dialect, session } = db as unknown as DrizzleInternals;
  if (typeof session.client.exec === "function") return preparedRows<T>(db, query);
  const built = buildStatement(dialect, query);
  return (await session.prepareQuery(built, undefined, undefined as unknown as string, false).execute()).rows as T[];
}

/** An SQL literal of a value. Strings are E'' literals, read the same whatever standard_conforming_strings says. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("a statement parameter is not a finite number");
    return String(value);
  }
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (typeof value === "string") return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  throw new Error(`a statement parameter of type ${typeof value} cannot be written as a literal`);
}
