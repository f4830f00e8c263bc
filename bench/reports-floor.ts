/**
 * The floor of reading a report's tickets in a compact form (issue 31, item 4, fresh reports): the CPU the database
 * backend and this process spend to read and parse the columns a one-pass count in the app would need for bench-1's
 * 90 days, in several encodings, beside `ticketFigures` as it is. Each variant runs RUNS times (default 10) in a
 * request's transaction (withTenant: row-level security, JIT off); the backend's CPU from /proc (10 ms ticks, so the
 * mean over the runs).
 *   RUNS=10 npx tsx bench/reports-floor.ts postgres://postgres@127.0.0.1:5432/<bench db>
 */
import { readFileSync } from "node:fs";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { connectModules } from "../apps/api/src/app.ts";
import { ticketFigures } from "../apps/api/src/modules/tickets/tickets.reports.ts";
import { type Db, queryRows } from "../apps/api/src/platform/db.ts";
import { withTenant } from "../apps/api/src/platform/tenancy.ts";

const [url] = process.argv.slice(2);
if (!url) throw new Error("usage: reports-floor.ts <url>");
connectModules();
const pool = new pg.Pool({ connectionString: url, max: 1 });
const db = drizzle(pool) as unknown as Db;
const at = new Date("2026-11-30T12:00:00Z");
const { rows } = await pool.query<{ org: string; admin: string; tz: string; start: Date; end: Date }>(
  `select o.id as org, (select id from users where organization_id = o.id and role = 'admin' limit 1) as admin,
          o.timezone as tz, ('2026-09-02'::date::timestamp at time zone o.timezone) as start,
          ('2026-12-01'::date::timestamp at time zone o.timezone) as end
   from organizations o where slug = 'bench-1'`,
);
const who = rows[0];
if (!who) throw new Error("no bench-1");
const span = { start: who.start.toISOString(), end: who.end.toISOString(), timezone: who.tz };
const bounds: string[] = [];
for (let d = who.start.getTime(); d < who.end.getTime(); d += 86_400_000) bounds.push(new Date(d).toISOString());
bounds.push(span.end);

const client = await pool.connect();
const backend = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
client.release();
const backendCpu = () => {
  const fields = readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

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
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
for (const v of variants) {
  const dbCpu: number[] = [];
  const appCpu: number[] = [];
  let out = 0;
  for (let i = 0; i <= runs; i++) {
    const cpu0 = process.cpuUsage();
    const db0 = backendCpu();
    out = await withTenant(db, { orgId: who.org, userId: who.admin, role: "admin" }, async (ctx) => {
      await ctx.db.execute(sql`set local work_mem = '64MB'`);
      return v.run(ctx.db as unknown as Db);
    });
    const cpu = process.cpuUsage(cpu0);
    if (i === 0) continue; // warm-up
    dbCpu.push(backendCpu() - db0);
    appCpu.push((cpu.user + cpu.system) / 1000);
  }
  const mean = (a: number[]) => (a.reduce((s, x) => s + x, 0) / a.length).toFixed(1);
  const min = (a: number[]) => Math.min(...a).toFixed(1);
  console.log(
    `${v.name}: database CPU mean ${mean(dbCpu)} ms (min ${min(dbCpu)}), app CPU mean ${mean(appCpu)} ms (min ${min(appCpu)}), out ${out}, load ${load()}`,
  );
}
await pool.end();
