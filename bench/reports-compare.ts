/**
 * Reports before and after a change (issue 31, fresh reports): five reports of the organization bench-1 of a database
 * seeded by `npm run bench:reports` (90 days by day; priority=high by week; a tag and a channel; the busiest assignee
 * by month over a year; a year by month), computed at a fixed clock with the answer cache out of the way, each written
 * as JSON to a directory (compare two directories with cmp: the answers must be byte for byte the same) and timed:
 * the median wall time, the database backend's CPU (from /proc, so the database must run on this machine) and this
 * process's CPU per report, over RUNS runs (default 5). CPU is the figure to compare on a shared, busy machine.
 *   RUNS=5 npx tsx bench/reports-compare.ts postgres://postgres@127.0.0.1:5432/<bench db> <out dir>
 * The backend's CPU leaves out PostgreSQL's parallel workers (a filtered report's replies and surveys may use them):
 * PGOPTIONS="-c max_parallel_workers_per_gather=0" has the one backend do all of it, so the figure is the whole.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { reportQuery } from "@cove/contract/reports.ts";
import { buildReport } from "../apps/api/src/modules/reports/reports.service.ts";
import { setClock } from "../apps/api/src/platform/clock.ts";
import { asAdmin, openReportsBench, REPORT_AT } from "./reports-tools.ts";

const [url, out] = process.argv.slice(2);
if (!url || !out) throw new Error("usage: reports-compare.ts <url> <dir>");
mkdirSync(out, { recursive: true });
const { pool, db, who, backendCpu } = await openReportsBench(url);
setClock(() => REPORT_AT);
const day = (n: number) => new Date(REPORT_AT.getTime() - n * 86_400_000).toISOString().slice(0, 10);
const cases: Record<string, Record<string, string>> = {
  day: { from: day(89), to: day(0) },
  "high-week": { from: day(89), to: day(0), priority: "high", group: "week" },
  "tag-channel": { from: day(89), to: day(0), tag: "mobile", channel: "email" },
  "agent-month": { from: day(364), to: day(0), agent: who.agent, group: "month" },
  "year-month": { from: day(364), to: day(0), group: "month" },
};
const runs = Number(process.env.RUNS ?? 5);
for (const [name, q] of Object.entries(cases)) {
  const times: number[] = [];
  const dbCpu: number[] = [];
  const appCpu: number[] = [];
  let text = "";
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const db0 = backendCpu();
    const r = await asAdmin(db, who, (ctx) => buildReport(ctx, reportQuery.parse(q)));
    text = JSON.stringify(r);
    const cpu = process.cpuUsage(cpu0);
    times.push(performance.now() - t0);
    dbCpu.push(backendCpu() - db0);
    appCpu.push((cpu.user + cpu.system) / 1000);
  }
  writeFileSync(`${out}/${name}.json`, text);
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]?.toFixed(1);
  console.log(
    `${name}: wall median ${median(times)} ms, database CPU median ${median(dbCpu)} ms, app CPU median ${median(appCpu)} ms (${runs} runs, first dropped: ${dbCpu
      .slice(1)
      .map((v) => v.toFixed(0))
      .join(" ")}), ${text.length} bytes`,
  );
}
await pool.end();
