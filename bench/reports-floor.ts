/**
 * The floor of reading a report's tickets in a compact form (issue 31, item 4, fresh reports): the CPU the database
 * backend and this process spend to read and parse the columns a one-pass count in the app would need for bench-1's
 * 90 days, in several encodings, beside `ticketFigures` as it is. Each variant runs RUNS times (default 10) in a
 * request's transaction (withTenant: row-level security, JIT off); the backend's CPU from /proc (10 ms ticks, so the
 * mean over the runs).
 *   RUNS=10 npx tsx bench/reports-floor.ts postgres://postgres@127.0.0.1:5432/<bench db>
 */
import { type SQL, sql } from "drizzle-orm";
import { ticketFigures } from "../apps/api/src/modules/tickets/tickets.reports.ts";
import { type Db, queryRows } from "../apps/api/src/platform/db.ts";
import { loadAverage, openReportsBench, REPORT_AT, statementAsAdmin } from "./reports-tools.ts";

const [url] = process.argv.slice(2);
if (!url) throw new Error("usage: reports-floor.ts <url>");
const { pool, db, who, backendCpu } = await openReportsBench(url);
const at = REPORT_AT;
// The 90 days' bounds: local midnights in the organization's time zone.
const { rows } = await pool.query<{ start: Date; end: Date }>(
  `select ('2026-09-02'::date::timestamp at time zone $1) as start, ('2026-12-01'::date::timestamp at time zone $1) as end`,
  [who.tz],
);
const midnights = rows[0];
if (!midnights) throw new Error("no bounds");
const span = { start: midnights.start.toISOString(), end: midnights.end.toISOString(), timezone: who.tz };
const bounds: string[] = [];
for (let d = midnights.start.getTime(); d < midnights.end.getTime(); d += 86_400_000)
  bounds.push(new Date(d).toISOString());
bounds.push(span.end);

const inRange = sql`t.organization_id = ${who.org} and t.created_at >= ${span.start}::timestamptz
                    and t.created_at < ${span.end}::timestamptz`;
const us = (c: string) => sql.raw(`(date_part('epoch', ${c}) * 1000000)::int8`);
const local = sql`(t.created_at at time zone ${span.timezone})`;
const dowHour = sql`(date_part('dow', ${local}) * 24 + date_part('hour', ${local}))::int`;
const solved = sql.raw(`case when t.status in ('solved', 'closed') then t.solved_at end`);
const cols: SQL[] = [
  us("t.created_at"),
  us("t.first_responded_at"),
  sql`(date_part('epoch', ${solved}) * 1000000)::int8`,
  us("t.first_response_due_at"),
  us("t.resolution_due_at"),
  sql`t.first_response_business_minutes`,
  sql`case when t.status in ('solved', 'closed') then t.resolution_business_minutes end`,
  sql`t.source::text`,
  sql`t.priority::text`,
  sql`t.ticket_number`,
  dowHour,
];

type Variant = { name: string; run: (tx: Db) => Promise<number> };
const variants: Variant[] = [
  {
    name: "ticketFigures (the code checked out)",
    run: async (tx) => (await ticketFigures(tx, who.org, {}, span, bounds, at, 100)).length,
  },
  {
    name: "count(*) of the range (index-only scan alone)",
    run: async (tx) => (await queryRows(tx, sql`select count(*) from tickets t where ${inRange}`)).length,
  },
  {
    name: "rows: 11 scalar columns + assignee uuid + tags text[]",
    run: async (tx) => {
      const r = await queryRows<Record<string, unknown>>(
        tx,
        sql`select ${sql.join(cols, sql`, `)}, t.assignee_id, t.tags from tickets t where ${inRange}`,
      );
      return r.length;
    },
  },
  {
    name: "columnar: string_agg per column (11) + assignee + tags as json_agg",
    run: async (tx) => {
      const aggs = cols.map((c) => sql`string_agg(coalesce((${c})::text, ''), ',')`);
      const [r] = await queryRows<Record<string, string>>(
        tx,
        sql`select count(*)::int as n, ${sql.join(aggs, sql`, `)}, string_agg(coalesce(t.assignee_id::text, ''), ','),
                   json_agg(t.tags)::text as tags
            from tickets t where ${inRange}`,
      );
      let n = 0;
      for (const [k, v] of Object.entries(r ?? {})) {
        if (k === "tags") n += (JSON.parse(v) as unknown[]).length;
        else if (typeof v === "string") {
          const parts = v.split(",");
          for (const p of parts) if (p !== "" && !Number.isNaN(Number(p))) n++;
        }
      }
      return n;
    },
  },
  {
    name: "columnar: string_agg per column (11), no assignee, no tags",
    run: async (tx) => {
      const aggs = cols.map((c) => sql`string_agg(coalesce((${c})::text, ''), ',')`);
      const [r] = await queryRows<Record<string, string>>(
        tx,
        sql`select ${sql.join(aggs, sql`, `)} from tickets t where ${inRange}`,
      );
      let n = 0;
      for (const v of Object.values(r ?? {})) for (const p of v.split(",")) if (p !== "") n += Number(p) > 0 ? 1 : 0;
      return n;
    },
  },
  {
    name: "columnar: one string_agg of a row text per ticket (11 + assignee + tags json)",
    run: async (tx) => {
      const [r] = await queryRows<{ s: string }>(
        tx,
        sql`select string_agg(concat_ws(',', ${sql.join(cols, sql`, `)}, t.assignee_id, to_json(t.tags)), chr(10)) as s
            from tickets t where ${inRange}`,
      );
      return (r?.s ?? "").split("\n").length;
    },
  },
];

const runs = Number(process.env.RUNS ?? 10);
for (const v of variants) {
  const dbCpu: number[] = [];
  const appCpu: number[] = [];
  let out = 0;
  for (let i = 0; i <= runs; i++) {
    const cpu0 = process.cpuUsage();
    const db0 = backendCpu();
    out = await statementAsAdmin(db, who, v.run);
    const cpu = process.cpuUsage(cpu0);
    if (i === 0) continue; // warm-up
    dbCpu.push(backendCpu() - db0);
    appCpu.push((cpu.user + cpu.system) / 1000);
  }
  const mean = (a: number[]) => (a.reduce((s, x) => s + x, 0) / a.length).toFixed(1);
  const min = (a: number[]) => Math.min(...a).toFixed(1);
  console.log(
    `${v.name}: database CPU mean ${mean(dbCpu)} ms (min ${min(dbCpu)}), app CPU mean ${mean(appCpu)} ms (min ${min(appCpu)}), out ${out}, load ${loadAverage()}`,
  );
}
await pool.end();
