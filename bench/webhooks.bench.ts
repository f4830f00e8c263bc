/**
 * npm run bench:webhooks: how fast webhooks go out. Builds the real app in process (its webhooks worker included),
 * with 100 endpoints on a local receiver (5 organizations of 20 endpoints, each subscribed to ticket.created; private
 * hosts allowed for the receiver on 127.0.0.1), then creates tickets through POST /api/tickets, a few at once, and
 * waits for every delivery. Prints deliveries per second (from the first ticket's commit to the last delivery) and the
 * delay from a ticket's commit (its POST answered) to each of its deliveries arriving: median, p95, max. It measures
 * and prints; it asserts nothing.
 *
 * Environment (all optional):
 *   BENCH_TARGETS   embedded,postgres (default embedded; PGlite in a temporary directory on disk)
 *   DATABASE_URL    admin connection for postgres (default postgres://postgres@127.0.0.1:5432/postgres); the bench
 *                   drops and recreates its own database on it (cove_bench_webhooks)
 *   BENCH_TICKETS   tickets per organization (20: 100 tickets, 2,000 deliveries)
 */

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20);
const ORGS = 5;
const PER_ORG = 20;
const AT_ONCE = 4;
const targets = (process.env.BENCH_TARGETS || "embedded").split(",").map((t) => t.trim());
const adminUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "cove_bench_webhooks";

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function databaseFor(target: string, dir: string) {
  if (target === "embedded") return openDatabase({ kind: "embedded", dir: path.join(dir, "db") });
  if (target !== "postgres") throw new Error(`BENCH_TARGETS takes embedded and postgres, got ${target}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${DB_NAME}`;
  return openDatabase({ kind: "postgres", url: u.toString() });
}

async function runTarget(target: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "cove-bench-webhooks-"));
  /** Event id -> when its ticket's POST was answered (after commit); arrival times of each delivery. */
  const committed = new Map<string, number>();
  const arrivals: { event: string; at: number }[] = [];
  let expected = Number.POSITIVE_INFINITY;
  let allArrived: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { ticket: { id: string } } };
      arrivals.push({ event: body.data.ticket.id, at: performance.now() });
      res.writeHead(204).end();
      if (arrivals.length >= expected) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;

  const database = await databaseFor(target, dir);
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <bench@cove.test>", outboxDir: path.join(dir, "outbox") },
    publicUrl: "http://127.0.0.1",
    registrationsPerHour: 1000,
    webhooks: { allowPrivateHosts: true },
  });
  await app.ready();
  const orgs: Record<string, string>[] = [];
  for (let n = 0; n < ORGS; n++) {
    const reg = await app.inject({
      method: "POST",
      url: "/api/auth/register",
      remoteAddress: `10.9.${n}.1`,
      payload: {
        organizationName: `Bench ${n}`,
        firstName: "Ada",
        lastName: "Lovelace",
        email: `bench-${n}-${Date.now()}@example.com`,
        password: "correct horse battery",
      },
    });
    if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
    const headers = { authorization: `Bearer ${(reg.json() as { token: string }).token}` };
    for (let e = 0; e < PER_ORG; e++) {
      const res = await app.inject({
        method: "POST",
        url: "/api/webhooks",
        headers,
        payload: { url: `http://127.0.0.1:${port}/o${n}/e${e}`, events: ["ticket.created"] },
      });
      if (res.statusCode !== 201) throw new Error(`webhook failed: ${res.body}`);
    }
    orgs.push(headers);
  }
  expected = ORGS * TICKETS * PER_ORG;
  const started = performance.now();
  const jobs = orgs.flatMap((headers) => Array.from({ length: TICKETS }, () => headers));
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < jobs.length) {
        const headers = jobs[next++] as Record<string, string>;
        const res = await app.inject({
          method: "POST",
          url: "/api/tickets",
          headers,
          payload: {
            subject: "Where is my parcel?",
            description: "Ordered last week.",
            requester_name: "Ana",
            requester_email: "ana@example.com",
          },
        });
        if (res.statusCode !== 201) throw new Error(`ticket failed: ${res.body}`);
        committed.set((res.json() as { ticket: { id: string } }).ticket.id, performance.now());
      }
    }),
  );
  const created = performance.now();
  await done;
  console.log(`  (tickets created in ${((created - started) / 1000).toFixed(1)} s)`);
  const last = Math.max(...arrivals.map((a) => a.at));
  const delays = arrivals.map((a) => a.at - (committed.get(a.event) ?? a.at)).sort((a, b) => a - b);
  const seconds = (last - started) / 1000;
  console.log(
    `\n${target === "postgres" ? "PostgreSQL" : "Embedded (PGlite, on disk)"}: ${ORGS * PER_ORG} endpoints, ${jobs.length} tickets, ${arrivals.length} deliveries`,
  );
  console.log(`  deliveries per second: ${(arrivals.length / seconds).toFixed(0)} (${seconds.toFixed(1)} s in all)`);
  console.log(
    `  commit to delivery: median ${quantile(delays, 0.5).toFixed(0)} ms, p95 ${quantile(delays, 0.95).toFixed(0)} ms, max ${(delays.at(-1) ?? 0).toFixed(0)} ms`,
  );
  await app.close();
  await database.close();
  receiver.closeAllConnections();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

for (const target of targets) await runTarget(target);
