/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements of one report of bench-1 (90 days by day, or with the query's fields
 * given as JSON) on a database seeded by `npm run bench:reports`, without running its loads:
 *   npx tsx bench/reports-explain.ts postgres://postgres@127.0.0.1:5432/<bench db> ['{"priority":"high"}']
 */
import { reportQuery } from "@cove/contract/reports.ts";
import pg from "pg";
import { buildReport } from "../apps/api/src/modules/reports/reports.service.ts";
import { explainAll } from "./explain.ts";
import { benchOrg } from "./reports-tools.ts";

const [url, extra] = process.argv.slice(2);
if (!url) throw new Error("url");
const pool = new pg.Pool({ connectionString: url, max: 1 });
const who = await benchOrg(pool).finally(() => pool.end());
const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const q = { from: day(89), to: day(0), ...(extra ? JSON.parse(extra) : {}) };
console.log(
  await explainAll(url, { orgId: who.org, userId: who.admin }, [
    { name: "report", run: (ctx) => buildReport(ctx, reportQuery.parse(q)) },
  ]),
);
