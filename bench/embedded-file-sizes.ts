/**
 * What remembering file sizes saves the embedded database (docs/decisions/2026-12-01-embedded-file-sizes.md): two
 * PGlite databases on disk in this one process, migrated to Cove's schema, one with platform/pglite-file-sizes.ts's
 * wrapper and one without, each planning the same ticket statements (a new literal each time, so each is planned as
 * the list's statements are), in alternating rounds so the machine's load falls on both alike. Prints the CPU per
 * statement and the fstat calls per statement of each.
 *   node --import tsx bench/embedded-file-sizes.ts [rounds] [statements a round]
 */
import fs, { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { rememberFileSizes } from "../apps/api/src/platform/pglite-file-sizes.ts";

const rounds = Number(process.argv[2] ?? 10);
const perRound = Number(process.argv[3] ?? 300);
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "../apps/api/src/db/migrations");
const root = mkdtempSync(path.join(tmpdir(), "cove-bench-sizes-"));

let fstats = 0;
const original = fs.fstatSync;
fs.fstatSync = ((...args: Parameters<typeof fs.fstatSync>) => {
  fstats++;
  return original(...args);
}) as typeof fs.fstatSync;

async function open(name: string, remember: boolean) {
  const client = new PGlite(path.join(root, name));
  await client.waitReady;
  if (remember) rememberFileSizes(client);
  await migrate(drizzle(client), { migrationsFolder });
  return { name, client, cpu: 0, fstats: 0, statements: 0 };
}

const databases = [await open("without", false), await open("with", true)];
// A list's statement, a filter's and a ticket's lookup, each with a literal of its own so each is planned.
const statements = [
  (i: number) =>
    `select id, ticket_number, subject from tickets where organization_id = '00000000-0000-4000-8000-${String(i).padStart(12, "0")}' order by updated_at desc, ticket_number desc limit 25`,
  (i: number) =>
    `select id from tickets where organization_id = '00000000-0000-4000-8000-000000000001' and status = 'open' and priority = 'high' and ticket_number > ${i} order by updated_at desc limit 25`,
  (i: number) =>
    `select t.id, c.body from tickets t left join ticket_comments c on c.ticket_id = t.id where t.ticket_number = ${i}`,
];
let n = 0;
for (let round = 0; round < rounds; round++) {
  for (const database of round % 2 === 0 ? databases : [...databases].reverse()) {
    const before = process.cpuUsage();
    const fstatsBefore = fstats;
    for (let k = 0; k < perRound; k++) {
      n++;
      await database.client.query(statements[n % statements.length]?.(n) ?? "select 1");
    }
    const used = process.cpuUsage(before);
    database.cpu += (used.user + used.system) / 1000;
    database.fstats += fstats - fstatsBefore;
    database.statements += perRound;
  }
}
console.log(
  `${rounds} rounds of ${perRound} statements each, alternated; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const d of databases) {
  console.log(
    `${d.name.padEnd(8)} sizes remembered: ${(d.cpu / d.statements).toFixed(3)} ms CPU a statement, ${(d.fstats / d.statements).toFixed(1)} fstat calls a statement`,
  );
}
for (const d of databases) await d.client.close();
rmSync(root, { recursive: true, force: true });
