import { openDatabase } from "../src/platform/db.ts";

/** Migrates the shared PostgreSQL test database once, before test files run in parallel against it. */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const database = await openDatabase({ kind: "postgres", url });
  await database.close();
}
