/**
 * npm run bench:email-corpus: every message of ../shared/data/emails-* through the email channel's filing
 * (receiveMail), on an embedded database, one organization per corpus folder. Prints what became of each corpus's
 * messages (tickets, replies, ignored as automated, rejected), the files of the bounce corpus that would have opened a
 * ticket, the slowest message and the memory used. It measures and prints; it asserts nothing (the tests, on copies
 * kept in the repository, do).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type InboundOutcome, receiveMail } from "../apps/api/src/modules/email/email.inbound.ts";
import { openDatabase, queryRows } from "../apps/api/src/platform/db.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(here, "../../shared/data");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith(".eml") ? [full] : [];
  });
}

const database = await openDatabase({ kind: "embedded", dir: null });
let n = 0;
async function newOrganization(): Promise<string> {
  n++;
  const [org] = await queryRows<{ id: string }>(
    database.db,
    sql`insert into organizations (name, slug, plan, subscription_status)
        values (${`Corpus ${n}`}, ${`corpus-${n}`}, 'business', 'active') returning id`,
  );
  if (!org) throw new Error("no organization");
  return org.id;
}

const groups = readdirSync(shared)
  .filter((d) => d.startsWith("emails-"))
  .flatMap((d) => {
    const sub = readdirSync(path.join(shared, d)).filter((s) => statSync(path.join(shared, d, s)).isDirectory());
    return sub.length > 0 ? sub.map((s) => path.join(d, s)) : [d];
  });

let slowest = { file: "", ms: 0 };
for (const group of groups) {
  const orgId = await newOrganization();
  const counts = new Map<string, number>();
  const opened: string[] = [];
  let crashed = 0;
  for (const file of files(path.join(shared, group))) {
    const raw = readFileSync(file);
    const started = performance.now();
    let outcome: InboundOutcome | { result: "crash" };
    try {
      // Each message as if from a different envelope sender: the per-sender throttle is a test of its own.
      outcome = await receiveMail(database.db, orgId, {
        raw,
        envelopeFrom: `sender@${path.basename(file)}`,
        tag: null,
      });
    } catch (err) {
      crashed++;
      console.error(`${path.relative(shared, file)}: ${String(err)}`);
      outcome = { result: "crash" };
    }
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { file: path.relative(shared, file), ms };
    const key = outcome.result === "ignored" || outcome.result === "rejected" ? `${outcome.result}` : outcome.result;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (outcome.result === "ticket" || outcome.result === "comment") opened.push(path.relative(shared, file));
  }
  const summary = [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(", ");
  console.log(`${group.padEnd(40)} ${summary}${crashed ? `, CRASHED ${crashed}` : ""}`);
  if (group.includes("sisimai") && opened.length > 0) {
    console.log(`  became tickets: ${opened.join(" ")}`);
  }
}
console.log(`slowest: ${slowest.file} ${slowest.ms.toFixed(0)} ms`);
console.log(`memory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
await database.close();
