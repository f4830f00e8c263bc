/**
 * The CPU of two statements of a report, alone (issue 31, item 4): `ticketFigures` and `backlogParts` for bench-1 of a
 * database seeded by `npm run bench:reports`, 90 days by day (no filter and priority=high) and the busiest assignee's
 * year by month, each RUNS times (default 30) in a request's transaction (withTenant: row-level security; 64 MB
 * work_mem, as ticketFigures sets it). The backend's CPU from /proc counts in 10 ms ticks, hence the mean over many
 * runs; run with PGOPTIONS="-c max_parallel_workers_per_gather=0" so the one backend does all the work.
 *   RUNS=30 npx tsx bench/reports-statements.ts postgres://postgres@127.0.0.1:5432/<bench db>
 */
import {
  backlogParts,
  type TicketReportFilter,
  ticketFigures,
} from "../apps/api/src/modules/tickets/tickets.reports.ts";
import type { Db } from "../apps/api/src/platform/db.ts";
import { loadAverage, openReportsBench, REPORT_AT, statementAsAdmin } from "./reports-tools.ts";

const [url] = process.argv.slice(2);
if (!url) throw new Error("usage: reports-statements.ts <url>");
const { pool, db, who, backendCpu } = await openReportsBench(url);
const at = REPORT_AT;
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = Date.parse(from); d <= Date.parse(to); d += 86_400_000) out.push(new Date(d).toISOString());
  return out;
};
const months = ["2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07", "2026-08"]
  .concat(["2026-09", "2026-10", "2026-11", "2026-12"])
  .map((m) => new Date(`${m}-01T00:00:00Z`).toISOString());
const cases: { name: string; f: TicketReportFilter; bounds: string[] }[] = [
  { name: "90 days by day", f: {}, bounds: days("2026-09-02", "2026-12-01") },
  { name: "90 days by day, priority=high", f: { priority: "high" }, bounds: days("2026-09-02", "2026-12-01") },
  { name: "a year by month, the busiest assignee", f: { agent: who.agent }, bounds: months },
  { name: "a year by month", f: {}, bounds: months },
];
const runs = Number(process.env.RUNS ?? 30);
for (const c of cases) {
  const span = { start: c.bounds[0] ?? "", end: c.bounds.at(-1) ?? "", timezone: who.tz };
  for (const [name, run] of [
    ["ticketFigures", (d: Db) => ticketFigures(d, who.org, c.f, span, c.bounds, at, 100)],
    ["backlogParts", (d: Db) => backlogParts(d, who.org, c.f, span, c.bounds)],
  ] as const) {
    let total = 0;
    for (let i = 0; i <= runs; i++) {
      const db0 = backendCpu();
      await statementAsAdmin<unknown>(db, who, run);
      if (i > 0) total += backendCpu() - db0; // the first run warms up
    }
    console.log(
      `${c.name}, ${name}: database CPU mean ${(total / runs).toFixed(1)} ms (${runs} runs), load ${loadAverage()}`,
    );
  }
}
await pool.end();
