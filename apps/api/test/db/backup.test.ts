import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { BackupError, type BackupTarget, backup, restore } from "../../../../scripts/backup.ts";
import { buildApp } from "../../src/app.ts";
import { type Database, openDatabase } from "../../src/platform/db.ts";
import { addComment, client, createTicket, onPostgres, registerOrg, unique } from "../helpers.ts";
import { holdDataDirLock } from "../support/cove-process.ts";
import { PNG, uploader } from "../support/files.ts";

// npm run backup / restore (scripts/backup.ts), on each database: an organization with tickets, comments, a file and
// settings is backed up, restored into an empty data directory or a fresh database, and compared table by table.

const temporary: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** Cove on the database, used the way people use it, then stopped. */
async function seed(database: Database): Promise<void> {
  const outboxDir = tempDir("cove-backup-outbox-");
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir },
    publicUrl: "http://cove.test",
  });
  await app.ready();
  try {
    const org = await registerOrg(app);
    const call = client(() => app);
    const settings = await call(org, "PUT", "/api/settings/general", {
      timezone: "Europe/Paris",
      brand_color: "#FF6600",
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const first = await createTicket(app, org, { subject: "The lamp arrived broken" });
    const file = await uploader(() => app)(org.token, `/api/tickets/${first.id}/attachments`, "pixel.png", PNG);
    expect(file.statusCode, file.body).toBe(201);
    await createTicket(app, org, { subject: "Where is my parcel?" });
    await addComment(app, org, first.id, { attachment_ids: [file.json().attachment.id] });
    await addComment(app, org, first.id, { body: "A note for the team.", is_public: false });
  } finally {
    await app.close();
  }
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** Every table outside the system's schemas: its row count and a checksum of its rows (each as text, sorted). */
async function fingerprint(query: Query): Promise<Record<string, string>> {
  const tables = await query(
    "SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2",
  );
  const out: Record<string, string> = {};
  for (const { schemaname, tablename } of tables) {
    const name = `"${schemaname}"."${tablename}"`;
    const [row] = await query(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS sum FROM ${name} r`,
    );
    out[name] = `${row?.n} rows, ${row?.sum}`;
  }
  return out;
}

async function embeddedFingerprint(dataDir: string) {
  const db = new PGlite(path.join(dataDir, "db"));
  try {
    return await fingerprint(async (text) => (await db.query<Record<string, unknown>>(text)).rows);
  } finally {
    await db.close();
  }
}

async function postgresFingerprint(url: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await fingerprint(async (text) => (await db.query(text)).rows);
  } finally {
    await db.end();
  }
}

/** The seeded tables are there: the comparison compares something. */
function expectSeeded(tables: Record<string, string>) {
  for (const table of [
    "organizations",
    "organization_settings",
    "tickets",
    "ticket_comments",
    "attachments",
    "attachment_parts",
  ]) {
    expect(tables[`"public"."${table}"`], table).toMatch(/^[1-9]\d* rows/);
  }
}

describe("backup and restore of the embedded database", () => {
  it("restores every table into an empty data directory, refuses to replace data unless forced, and refuses a data directory in use", {
    timeout: 120_000,
  }, async () => {
    const source = tempDir("cove-backup-src-");
    const database = await openDatabase({ kind: "embedded", dir: path.join(source, "db") });
    try {
      await seed(database);
    } finally {
      await database.close();
    }
    const file = path.join(tempDir("cove-backup-file-"), "cove.backup");
    const from: BackupTarget = { kind: "embedded", dataDir: source };
    await backup(from, file);

    const target: BackupTarget = { kind: "embedded", dataDir: tempDir("cove-backup-dst-") };
    await restore(target, file);
    const expected = await embeddedFingerprint(source);
    expectSeeded(expected);
    expect(await embeddedFingerprint(target.dataDir)).toEqual(expected);

    await expect(restore(target, file)).rejects.toThrow(/already holds a database.*--force/);
    await restore(target, file, { force: true });
    expect(await embeddedFingerprint(target.dataDir)).toEqual(expected);

    const holder = await holdDataDirLock(source);
    try {
      await expect(backup(from, file)).rejects.toThrow(BackupError);
      await expect(backup(from, file)).rejects.toThrow(/already using the data directory.*stop Cove first/);
      await expect(restore(from, file, { force: true })).rejects.toThrow(/already using the data directory/);
    } finally {
      holder.kill();
    }
  });

  it("says what is wrong with a file that is no backup, and with a backup of the other database", async () => {
    const target: BackupTarget = { kind: "embedded", dataDir: tempDir("cove-backup-other-") };
    await expect(restore(target, path.join(target.dataDir, "missing.backup"))).rejects.toThrow(/There is no file/);
    const here = path.resolve(import.meta.dirname, "backup.test.ts");
    await expect(restore(target, here)).rejects.toThrow(/is not a Cove backup/);
  });
});

describe.runIf(onPostgres)("backup and restore of PostgreSQL", () => {
  /** A database of its own on the test server, dropped after: name made with this branch's name in it. */
  const server = new URL(process.env.TEST_DATABASE_URL ?? "postgres://localhost/none");
  const created: string[] = [];
  const admin = async (text: string) => {
    const db = new pg.Client({ connectionString: server.toString() });
    await db.connect();
    try {
      await db.query(text);
    } finally {
      await db.end();
    }
  };
  const freshDatabase = async (role: string) => {
    const name = `cove_ops_deploy_${role}_${unique()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")}`;
    await admin(`CREATE DATABASE ${name}`);
    created.push(name);
    const url = new URL(server);
    url.pathname = `/${name}`;
    return url.toString();
  };
  afterAll(async () => {
    for (const name of created) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it("restores every table into a fresh database, and refuses to replace data unless forced", {
    timeout: 120_000,
  }, async () => {
    const sourceUrl = await freshDatabase("src");
    const database = await openDatabase({ kind: "postgres", url: sourceUrl });
    try {
      await seed(database);
    } finally {
      await database.close();
    }
    const file = path.join(tempDir("cove-backup-file-"), "cove.backup");
    await backup({ kind: "postgres", url: sourceUrl }, file);

    const target: BackupTarget = { kind: "postgres", url: await freshDatabase("dst") };
    await restore(target, file);
    const expected = await postgresFingerprint(sourceUrl);
    expectSeeded(expected);
    expect(await postgresFingerprint(target.url)).toEqual(expected);

    await expect(restore(target, file)).rejects.toThrow(/already holds \d+ tables.*--force/);
    await restore(target, file, { force: true });
    expect(await postgresFingerprint(target.url)).toEqual(expected);

    // A backup of PostgreSQL is not restored into an embedded data directory.
    await expect(restore({ kind: "embedded", dataDir: tempDir("cove-backup-mix-") }, file)).rejects.toThrow(
      /backup of PostgreSQL/,
    );
  });
});
