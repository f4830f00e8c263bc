// Backups of Cove's database into one file, and their restore (docs/deploy.md, Backups). Everything Cove keeps is in
// the database (files are rows), so one file holds it all. What is not in it: SECRETS_KEY (or DATA_DIR/secrets.key),
// which must be kept apart from the backups, as the key that unseals what the rows hold sealed.
//
//   npm run backup -- <file>              embedded database in DATA_DIR (default ./data), or DATABASE_URL's PostgreSQL
//   npm run restore -- <file> [--force]   into the same place; refuses to replace existing data unless --force
//
// The embedded database is PGlite's data directory as a gzipped tarball (dumpDataDir); PostgreSQL's is pg_dump's
// custom format (Debian's postgresql-client). The file's first bytes tell the two apart.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { DataDirLockedError, lockDataDir } from "../apps/api/src/platform/data-dir-lock.ts";

/** A refusal or a failure explained to the person running the script: printed alone, without a stack. */
export class BackupError extends Error {}

export type BackupTarget = { kind: "embedded"; dataDir: string } | { kind: "postgres"; url: string };

/**
 * Where the script works, from the same variables Cove reads. On PostgreSQL a direct connection is preferred: pg_dump
 * and pg_restore hold session state that a pooler in transaction mode does not keep.
 */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): BackupTarget {
  const url = env.DATABASE_DIRECT_URL || env.DATABASE_URL;
  if (url) return { kind: "postgres", url };
  return { kind: "embedded", dataDir: path.resolve(env.DATA_DIR || "./data") };
}

const GZIP = Buffer.from([0x1f, 0x8b]);
const PG_DUMP = Buffer.from("PGDMP");

function kindOfFile(file: string): "embedded" | "postgres" {
  const head = readFileSync(file).subarray(0, 5);
  if (head.subarray(0, 2).equals(GZIP)) return "embedded";
  if (head.equals(PG_DUMP)) return "postgres";
  throw new BackupError(`${file} is not a Cove backup (neither an embedded database's nor pg_dump's custom format).`);
}

/** Holds the data directory's lock while fn runs, so no Cove process opens the database meanwhile. */
async function withDataDirLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      throw new BackupError(`${err.message} (A backup or restore needs the database to itself: stop Cove first.)`);
    }
    throw err;
  }
  try {
    return await fn();
  } finally {
    unlock();
  }
}

const embeddedDir = (dataDir: string) => path.join(dataDir, "db");
const holdsFiles = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (err) =>
      reject(new BackupError(`Could not run ${command} (${err.message}): install Debian's postgresql-client.`)),
    );
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${command} failed (exit ${code}):\n${stderr.trim()}`));
    });
  });
}

/** Writes a backup of the target's whole database to file. */
export async function backup(target: BackupTarget, file: string): Promise<void> {
  if (target.kind === "postgres") {
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, `--dbname=${target.url}`]);
    return;
  }
  const dir = embeddedDir(target.dataDir);
  if (!holdsFiles(dir)) throw new BackupError(`There is no database in ${dir} to back up.`);
  await withDataDirLock(target.dataDir, async () => {
    const client = new PGlite(dir);
    try {
      await client.waitReady;
      const dump = await client.dumpDataDir("gzip");
      writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await client.close();
    }
  });
}

/** The tables of a PostgreSQL database outside the system's own schemas: none in a fresh database. */
async function postgresTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * The roles the row-level security policies grant to (migrations 0001 and 0016) belong to the PostgreSQL server, not
 * to a database, so a dump does not carry them; a restore onto another server makes them first.
 */
async function ensureRoles(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const role of ["cove_app", "cove_contact"]) {
      const { rowCount } = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]);
      if (!rowCount) await client.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOBYPASSRLS`);
    }
  } finally {
    await client.end();
  }
}

/** Drops every schema of the database but the system's, in one transaction, and makes an empty public schema. */
async function emptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg_temp_%' AND nspname NOT LIKE 'pg_toast_temp_%'",
    );
    await client.query("BEGIN");
    for (const { name } of rows) await client.query(`DROP SCHEMA "${name.replaceAll('"', '""')}" CASCADE`);
    await client.query("CREATE SCHEMA public");
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

const REFUSAL =
  "Nothing was changed. Restoring replaces all of it with the backup: run again with --force if that is what you want.";

/** Restores file into the target. Existing data is replaced only with force; otherwise the restore refuses. */
export async function restore(target: BackupTarget, file: string, opts: { force?: boolean } = {}): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}.`);
  const kind = kindOfFile(file);
  if (kind !== target.kind) {
    throw new BackupError(
      kind === "embedded"
        ? `${file} is a backup of an embedded database: restore it with DATABASE_URL unset (into DATA_DIR).`
        : `${file} is a backup of PostgreSQL: restore it with DATABASE_URL set to the database to restore into.`,
    );
  }
  if (target.kind === "postgres") {
    const existing = await postgresTables(target.url);
    if (existing > 0 && !opts.force) throw new BackupError(`The database already holds ${existing} tables. ${REFUSAL}`);
    // pg_restore --clean cannot drop the job queue's partitioned tables piece by piece: the schemas go as a whole.
    if (existing > 0) await emptyPostgres(target.url);
    await ensureRoles(target.url);
    await run("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${target.url}`, file]);
    return;
  }
  const dir = embeddedDir(target.dataDir);
  await withDataDirLock(target.dataDir, async () => {
    if (holdsFiles(dir) && !opts.force) throw new BackupError(`${dir} already holds a database. ${REFUSAL}`);
    // Unpacked beside the old database and swapped in only once it opens, so a failed restore leaves the old one.
    const incoming = `${dir}.restoring`;
    rmSync(incoming, { recursive: true, force: true });
    const client = new PGlite(incoming, { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      await client.waitReady;
      await client.query("SELECT 1");
    } finally {
      await client.close();
    }
    const old = `${dir}.replaced`;
    rmSync(old, { recursive: true, force: true });
    if (existsSync(dir)) renameSync(dir, old);
    renameSync(incoming, dir);
    rmSync(old, { recursive: true, force: true });
  });
}

function describe(target: BackupTarget): string {
  if (target.kind === "embedded") return `the embedded database in ${target.dataDir}`;
  const url = new URL(target.url);
  return `PostgreSQL database ${url.pathname.slice(1)} on ${url.hostname}`;
}

async function cli(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const force = rest.includes("--force");
  const files = rest.filter((a) => a !== "--force");
  if ((command !== "backup" && command !== "restore") || files.length !== 1 || (command === "backup" && force)) {
    console.error("Usage: npm run backup -- <file>\n       npm run restore -- <file> [--force]");
    process.exitCode = 2;
    return;
  }
  const file = path.resolve(files[0] as string);
  const target = targetFromEnv();
  try {
    if (command === "backup") {
      await backup(target, file);
      console.log(`Backed up ${describe(target)} to ${file}`);
    } else {
      await restore(target, file, { force });
      console.log(`Restored ${file} into ${describe(target)}`);
    }
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await cli(process.argv.slice(2));
}
