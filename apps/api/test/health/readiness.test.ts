import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { openDatabase } from "../../src/platform/db.ts";
import { createTestApp, onPostgres, type TestApp, unique } from "../helpers.ts";
import { freshPostgresDatabase } from "../support/fresh-database.ts";

/** /api/ready, the load balancer's check (docs/deploy.md), beside /api/health, the liveness check. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("/api/ready", () => {
  it("answers 200 on a migrated database, and 503 once the instance drains while /api/health stays 200", async () => {
    const ready = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });

    t.app.lifecycle.drain();
    const draining = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: "not_ready", reason: "The instance is shutting down." });
    // Still alive, and still serving what it is sent.
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me" })).statusCode).toBe(401);
  });

  it("answers 503 when the database lacks a migration this version carries", async () => {
    // An older version's migrations: the bundled ones without the last. This version started on such a database must
    // not get traffic until the database is migrated.
    const source = path.resolve(import.meta.dirname, "../../src/db/migrations");
    const folder = mkdtempSync(path.join(tmpdir(), "cove-older-migrations-"));
    cpSync(source, folder, { recursive: true });
    const journalFile = path.join(folder, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
    journal.entries.pop();
    writeFileSync(journalFile, JSON.stringify(journal));

    const fresh = onPostgres ? await freshPostgresDatabase(`ready_${unique()}`) : null;
    const database = await openDatabase(
      fresh
        ? { kind: "postgres", url: fresh.url, migrationsFolder: folder }
        : { kind: "embedded", dir: null, migrationsFolder: folder },
    );
    const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-outbox-"));
    const app = await buildApp({
      database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir },
      publicUrl: "http://cove.test",
    });
    try {
      expect(await database.migrationsBehind()).toBe(1);
      const res = await app.inject({ method: "GET", url: "/api/ready" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: "not_ready", reason: "The database lacks 1 migration of this version." });
    } finally {
      await app.close();
      await database.close();
      await fresh?.drop();
      rmSync(folder, { recursive: true, force: true });
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
