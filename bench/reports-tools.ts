/**
 * What the reports tools (reports-compare, reports-explain, reports-floor, reports-statements) share: the organization
 * they report on in a database seeded by `npm run bench:reports` (bench-1, with its admin), a one-connection pool whose
 * backend's CPU they read from /proc, and a request's transaction to time a report or a statement in.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { connectModules } from "../apps/api/src/app.ts";
import type { Db } from "../apps/api/src/platform/db.ts";
import { type Ctx, withTenant } from "../apps/api/src/platform/tenancy.ts";
import { processCpuMs } from "./load.ts";

/** The fixed clock the timed tools report at (the seed dates its year back from the day it runs). */
export const REPORT_AT = new Date("2026-11-30T12:00:00Z");

/** The reported organization: its id, an admin to report as, its time zone and its busiest assignee. */
export interface BenchOrg {
  org: string;
  admin: string;
  tz: string;
  agent: string;
}

/** bench-1 of the database behind `pool`; throws when the database was not seeded by `npm run bench:reports`. */
export async function benchOrg(pool: pg.Pool): Promise<BenchOrg> {
  const { rows } = await pool.query<BenchOrg>(
    `select o.id as org, (select id from users where organization_id = o.id and role = 'admin' limit 1) as admin,
            o.timezone as tz,
            (select assignee_id::text from tickets where organization_id = o.id and assignee_id is not null
             group by 1 order by count(*) desc, 1 limit 1) as agent
     from organizations o where slug = 'bench-1'`,
  );
  const who = rows[0];
  if (!who) throw new Error("no bench-1");
  return who;
}

/** What a timed tool works with: a pool of one connection, its Drizzle instance, bench-1 and its backend's CPU. */
export interface ReportsBench {
  pool: pg.Pool;
  db: Db;
  who: BenchOrg;
  /** The CPU (user + system, ms) the pool's one backend has used so far. */
  backendCpu: () => number;
}

/**
 * The services wired as the app wires them, and a pool of one connection to `url`, so that one backend does all the
 * database's work: its CPU is read from /proc, so the database must run on this machine. /proc counts in clock ticks
 * (10 ms), so a tool takes a median or a mean over several runs.
 */
export async function openReportsBench(url: string): Promise<ReportsBench> {
  connectModules();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const who = await benchOrg(pool);
  const client = await pool.connect();
  const backend = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
  client.release();
  if (backend === undefined) throw new Error("no backend pid");
  return { pool, db: drizzle(pool) as unknown as Db, who, backendCpu: () => processCpuMs(backend) };
}

/** The machine's load average over 1, 5 and 15 minutes, as /proc/loadavg has it. */
export const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** `fn` in a request's transaction (row-level security, JIT off) of bench-1's admin. */
export function asAdmin<T>(db: Db, who: BenchOrg, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  return withTenant(db, { orgId: who.org, userId: who.admin, role: "admin" }, fn);
}

/** `run` on a request's transaction of bench-1's admin with the 64 MB work_mem ticketFigures sets for itself. */
export function statementAsAdmin<T>(db: Db, who: BenchOrg, run: (tx: Db) => Promise<T>): Promise<T> {
  return asAdmin(db, who, async (ctx) => {
    await ctx.db.execute(sql`set local work_mem = '64MB'`);
    return run(ctx.db as unknown as Db);
  });
}
