/**
 * npm run bench:imap [-- --messages N] [-- --database-url postgres://…]: imports a mailbox of 50,000 messages
 * (default) from a real Dovecot into an embedded database, as a default local run would (or into a fresh PostgreSQL
 * database, as deployed: give it an empty one), and prints the pace and the process's memory as it goes: peak RSS and
 * heap, and the memory at each tenth of the way (flat, or growing with the mailbox?). Needs dovecot-imapd.
 * It measures; it asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { sql } from "drizzle-orm";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase, queryRows } from "../apps/api/src/platform/db.ts";
import { customerMail, startDovecot } from "../apps/api/test-imap/dovecot.ts";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const MESSAGES = Number(arg("--messages") ?? 50_000);
const DATABASE_URL = arg("--database-url");
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "cove-bench-imap-"));
  const dovecot = await startDovecot();
  const started = Date.now();
  // Every tenth message has no Message-ID (filed under the hash of its source); a few are automatic replies.
  const written = dovecot.writeMaildir(
    (function* () {
      for (let i = 0; i < MESSAGES; i++) {
        yield customerMail(
          i,
          i % 10 === 0 ? { messageId: null } : i % 500 === 1 ? { headers: ["Auto-Submitted: auto-replied"] } : {},
        );
      }
    })(),
  );
  console.log(
    `Mailbox: ${written} messages written to Dovecot's maildir in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const database = await openDatabase(
    DATABASE_URL ? { kind: "postgres", url: DATABASE_URL } : { kind: "embedded", dir: path.join(dir, "db") },
  );
  console.log(`Database: ${database.kind}`);
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.test>", outboxDir: path.join(dir, "outbox") },
    publicUrl: "http://bench.test",
    mailboxes: { allowPrivateHosts: true },
  });
  await app.ready();
  const reg = await app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: {
      organizationName: "Bench Mail",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@bench.test",
      password: "correct horse battery",
    },
  });
  const { token, user } = reg.json() as { token: string; user: { organizationId: string } };
  // 50,000 tickets in a month is past every plan but Business's (no limit).
  await database.db.execute(sql`update organizations set plan = 'business' where id = ${user.organizationId}`);

  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    return m;
  };
  const sampler = setInterval(sample, 200);
  const base = sample();
  console.log(`App ready: RSS ${mb(base.rss)}, heap ${mb(base.heapUsed)}`);

  const t0 = Date.now();
  const res = await app.inject({
    method: "POST",
    url: "/api/email/mailboxes",
    headers: { authorization: `Bearer ${token}` },
    payload: { host: dovecot.host, port: dovecot.port, tls: false, user: dovecot.user, password: dovecot.password },
  });
  if (res.statusCode !== 201) throw new Error(`connect: ${res.statusCode} ${res.body}`);
  const id = res.json().mailbox.id as string;
  console.log("\n  done      msg/s   RSS       heap used   (every tenth of the way)");
  let next = MESSAGES / 10;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const list = await app.inject({
      method: "GET",
      url: "/api/email/mailboxes",
      headers: { authorization: `Bearer ${token}` },
    });
    const m = (list.json().mailboxes as { id: string; status: string; progress: Record<string, number> }[]).find(
      (x) => x.id === id,
    );
    if (!m) throw new Error("mailbox gone");
    const p = m.progress;
    const done = (p.imported ?? 0) + (p.skipped ?? 0) + (p.failed ?? 0);
    if (done >= next || m.status !== "importing") {
      // With --expose-gc the figure is what is still held after a full collection: growth there is a leak.
      (globalThis as { gc?: () => void }).gc?.();
      const mem = sample();
      const rate = done / ((Date.now() - t0) / 1000);
      console.log(
        `  ${String(done).padStart(6)}  ${rate.toFixed(1).padStart(6)}   ${mb(mem.rss).padEnd(8)}  ${mb(mem.heapUsed)}`,
      );
      while (next <= done) next += MESSAGES / 10;
    }
    if (m.status !== "importing") {
      const seconds = (Date.now() - t0) / 1000;
      console.log(`\nStatus ${m.status}: imported ${p.imported}, skipped ${p.skipped}, failed ${p.failed}`);
      console.log(`Time ${seconds.toFixed(0)} s, ${(done / seconds).toFixed(1)} messages/s`);
      console.log(
        `Peak RSS ${mb(peakRss)}, peak heap used ${mb(peakHeap)} (at start: ${mb(base.rss)}, ${mb(base.heapUsed)})`,
      );
      const reasons = await queryRows<{ reason: string; n: number }>(
        database.db,
        sql`select coalesce(reason, '') as reason, count(*)::int as n from email_messages
            where status in ('rejected', 'ignored') group by 1 order by 2 desc limit 5`,
      );
      for (const r of reasons) console.log(`  not filed: ${r.n} × ${r.reason}`);
      break;
    }
  }
  clearInterval(sampler);
  if (process.env.BENCH_HEAP_SNAPSHOT)
    console.log(`Heap snapshot: ${writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT)}`);
  await app.close();
  await database.close();
  await dovecot.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
