import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migratedTemplate, openDatabase } from "../src/platform/db.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty embedded database's data directory, that each test's in-memory database starts from. */
    embeddedTemplate: string;
  }
}

/**
 * Once, before the test files run in parallel: migrates the shared PostgreSQL test database (with TEST_DATABASE_URL),
 * and makes the embedded database's template, so that each test file's database starts migrated (about 2 seconds
 * sooner than creating and migrating its own; helpers.ts).
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = await openDatabase({ kind: "postgres", url, directUrl: process.env.TEST_DATABASE_DIRECT_URL });
    await database.close();
  }
  const dir = mkdtempSync(path.join(tmpdir(), "cove-test-template-"));
  const file = path.join(dir, "embedded.tar");
  writeFileSync(file, Buffer.from(await (await migratedTemplate()).arrayBuffer()));
  project.provide("embeddedTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
