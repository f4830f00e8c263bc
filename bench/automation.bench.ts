/**
 * npm run bench:automation: what automation rules add to creating a ticket. Builds the real app in process, registers
 * one organization per scenario and creates tickets one after another through POST /api/tickets (app.inject, so no
 * network), with 0 rules, with 50 active rules whose conditions do not hold, and with 50 active rules of which 5 hold
 * and act (add a tag), the scenarios taking turns ticket by ticket. Prints the median, p95 and mean per ticket. It measures and prints; it asserts nothing.
 *
 * Environment (all optional):
 *   BENCH_TARGETS   embedded,postgres (default embedded; PGlite in a temporary directory on disk, full durability)
 *   DATABASE_URL    admin connection for postgres (default postgres://postgres@127.0.0.1:5432/postgres); the bench
 *                   drops and recreates its own database on it (cove_bench_automation)
 *   BENCH_TICKETS   tickets measured per scenario (300), after BENCH_WARMUP (30)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CreateRuleBody } from "@cove/contract/automation.ts";
import pg from "pg";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";

const count = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const TICKETS = count("BENCH_TICKETS", 300);
const WARMUP = count("BENCH_WARMUP", 30);
const targets = (process.env.BENCH_TARGETS || "embedded").split(",").map((t) => t.trim());
const adminUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "cove_bench_automation";

/** Rule i of 50: a subject condition that holds for "matching" rules only, and one action. */
function rule(i: number, holds: boolean): CreateRuleBody {
  return {
    name: `Rule ${i}`,
    triggerConditions: {
      event: "ticket_created",
      conditions: [
        { field: "ticket.subject", operator: "contains", value: holds ? "parcel" : `never-${i}` },
        { field: "ticket.status", operator: "equals", value: "open" },
      ],
    },
    actions: [{ type: "add_tags", tags: [`r${i}`] }],
  };
}

const SCENARIOS: { name: string; rules: CreateRuleBody[] }[] = [
  { name: "0 rules", rules: [] },
  { name: "50 rules, none holds", rules: Array.from({ length: 50 }, (_, i) => rule(i, false)) },
  { name: "50 rules, 5 hold and act", rules: Array.from({ length: 50 }, (_, i) => rule(i, i % 10 === 0)) },
];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function runTarget(target: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "cove-bench-automation-"));
  let url: string | undefined;
  if (target === "postgres") {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${DB_NAME}`;
    url = u.toString();
  } else if (target !== "embedded") {
    throw new Error(`BENCH_TARGETS takes embedded and postgres, got ${target}`);
  }
  const database = await openDatabase(
    url ? { kind: "postgres", url } : { kind: "embedded", dir: path.join(dir, "db") },
  );
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <bench@cove.test>", outboxDir: path.join(dir, "outbox") },
    publicUrl: "http://127.0.0.1",
  });
  await app.ready();
  console.log(`\n${target === "postgres" ? "PostgreSQL" : "Embedded (PGlite, on disk)"}: ${TICKETS} tickets each`);
  console.log("scenario                     median ms   p95 ms   mean ms");
  try {
    const orgs: { name: string; headers: Record<string, string>; times: number[] }[] = [];
    for (const [n, scenario] of SCENARIOS.entries()) {
      const reg = await app.inject({
        method: "POST",
        url: "/api/auth/register",
        remoteAddress: `10.0.${n}.1`,
        payload: {
          organizationName: `Bench ${n}`,
          firstName: "Bench",
          lastName: "Admin",
          email: `bench-${n}-${Date.now()}@bench.cove.test`,
          password: "benchmark-password",
        },
      });
      if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
      const headers = { authorization: `Bearer ${(reg.json() as { token: string }).token}` };
      for (const body of scenario.rules) {
        const res = await app.inject({ method: "POST", url: "/api/automation/rules", headers, payload: body });
        if (res.statusCode !== 201) throw new Error(`rule failed: ${res.body}`);
      }
      orgs.push({ name: scenario.name, headers, times: [] });
    }
    // The scenarios take turns, ticket by ticket, so a busy moment of the machine weighs on each alike.
    for (let i = 0; i < WARMUP + TICKETS; i++) {
      for (const org of orgs) {
        const started = performance.now();
        const res = await app.inject({
          method: "POST",
          url: "/api/tickets",
          headers: org.headers,
          payload: {
            subject: `Where is my parcel ${i}?`,
            description: "It has been a week.",
            requester_name: "Ana Ruiz",
            requester_email: `ana-${i % 50}@example.com`,
          },
        });
        const took = performance.now() - started;
        if (res.statusCode !== 201) throw new Error(`ticket failed: ${res.body}`);
        if (i >= WARMUP) org.times.push(took);
      }
    }
    for (const { name, times } of orgs) {
      times.sort((a, b) => a - b);
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      console.log(
        `${name.padEnd(28)} ${quantile(times, 0.5).toFixed(2).padStart(9)} ${quantile(times, 0.95)
          .toFixed(2)
          .padStart(8)} ${mean.toFixed(2).padStart(9)}`,
      );
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    if (target === "postgres") {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
      await admin.end();
    }
  }
}

for (const target of targets) await runTarget(target);
