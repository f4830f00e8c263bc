import pg from "pg";

/**
 * A new, empty PostgreSQL database beside TEST_DATABASE_URL's (same server and user), for tests that need one nobody
 * else touches: start-up on an empty database, an older version's migrations. drop() removes it.
 */
export async function freshPostgresDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("freshPostgresDatabase needs TEST_DATABASE_URL");
  const safe = `cove_${name.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${safe}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${safe}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        // Connections the test just closed may still be saying goodbye: wait for them rather than cutting them (a cut
        // connection raises an error in the process that owned it). Only connections left open are cut.
        for (let attempt = 0; attempt < 50; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${safe}`);
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== "55006") throw err;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        await client.query(`DROP DATABASE IF EXISTS ${safe} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
