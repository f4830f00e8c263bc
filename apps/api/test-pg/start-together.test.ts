import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/platform/db.ts";
import { unique } from "../test/helpers.ts";
import { freshPostgresDatabase } from "../test/support/fresh-database.ts";

/**
 * Start-up together (docs/deploy.md): three instances started at the same moment on an empty PostgreSQL database
 * migrate it once (an advisory lock, platform/db.ts) and all come up, job queue included.
 */
if (!process.env.TEST_DATABASE_URL) throw new Error("This suite needs TEST_DATABASE_URL (a PostgreSQL database).");

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("three instances on an empty database", () => {
  it("migrate it once and all come up ready", async () => {
    const fresh = await freshPostgresDatabase(`together_${unique()}`);
    cleanups.push(() => fresh.drop());
    const outboxDir = mkdtempSync(path.join(tmpdir(), "cove-outbox-"));
    cleanups.push(async () => rmSync(outboxDir, { recursive: true, force: true }));

    const startInstance = async () => {
      const database: Database = await openDatabase({ kind: "postgres", url: fresh.url });
      cleanups.push(() => database.close());
      const app = await buildApp({
        database,
        mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir },
        publicUrl: "http://cove.test",
      });
      cleanups.push(() => app.close());
      await app.ready();
      return app;
    };
    const started = await Promise.allSettled([startInstance(), startInstance(), startInstance()]);
    expect(started.map((s) => (s.status === "rejected" ? String(s.reason) : "up"))).toEqual(["up", "up", "up"]);

    for (const result of started) {
      if (result.status !== "fulfilled") continue;
      const ready = await result.value.inject({ method: "GET", url: "/api/ready" });
      expect(ready.json()).toEqual({ status: "ready" });
    }
    // Each migration applied exactly once.
    const first = started[0];
    if (first?.status !== "fulfilled") throw new Error("no instance");
    const { rows } = (await first.value.db.execute(
      "select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash having count(*) > 1" as never,
    )) as unknown as { rows: unknown[] };
    expect(rows).toEqual([]);
  }, 180_000);
});
