/**
 * EXPLAIN (ANALYZE, BUFFERS) of the exact statements the app sends: the real services run once through a Drizzle
 * instance that records every statement with its parameters, then each recorded SELECT is explained in a transaction
 * set up like a request's (request role, app.org_id), so row-level security applies as it does in production.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { connectModules } from "../apps/api/src/app.ts";
import type { Db } from "../apps/api/src/platform/db.ts";
import { type Ctx, REQUEST_ROLE, withTenant } from "../apps/api/src/platform/tenancy.ts";

export interface ExplainCase {
  name: string;
  run: (ctx: Ctx) => Promise<unknown>;
}

interface Statement {
  text: string;
  params: unknown[];
}

const isQuery = (text: string) => /^\s*(select|with)\b/i.test(text) && !/^\s*select set_config\(/i.test(text);
/** A transaction setting a service makes for its statements (set local work_mem ...), replayed before each EXPLAIN. */
const isSetting = (text: string) => /^\s*set\s+local\b/i.test(text);

export async function explainAll(
  url: string,
  principal: { orgId: string; userId: string },
  cases: ExplainCase[],
): Promise<string> {
  // The services run here without an app: give them what app.ts gives them (a ticket's files, rating...).
  connectModules();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let recorded: Statement[] = [];
  const db: Db = drizzle(pool, {
    logger: { logQuery: (text, params) => void recorded.push({ text, params }) },
  });
  const out: string[] = [];
  const client = await pool.connect();
  try {
    for (const c of cases) {
      recorded = [];
      await withTenant(db, { ...principal, role: "admin" }, c.run);
      const settings = recorded.filter((s) => isSetting(s.text));
      for (const statement of recorded.filter((s) => isQuery(s.text))) {
        // The first run warms the cache; the second, as a busy server would answer, is reported.
        let plan: string[] = [];
        for (let attempt = 0; attempt < 2; attempt++) {
          await client.query("begin");
          try {
            // As platform/tenancy.ts confines a request: its organization, the request role, JIT compiling off.
            await client.query(
              "select set_config('app.org_id', $1, true), set_config('role', $2, true), set_config('jit', 'off', true)",
              [principal.orgId, REQUEST_ROLE],
            );
            for (const s of settings) await client.query(s.text, s.params);
            const result = await client.query<{ "QUERY PLAN": string }>(
              `explain (analyze, buffers) ${statement.text}`,
              statement.params,
            );
            plan = result.rows.map((r) => r["QUERY PLAN"]);
          } finally {
            await client.query("rollback");
          }
        }
        out.push(`-- ${c.name}`, statement.text, `-- params: ${JSON.stringify(statement.params)}`, ...plan, "");
      }
    }
  } finally {
    client.release();
    await pool.end();
  }
  return out.join("\n");
}
