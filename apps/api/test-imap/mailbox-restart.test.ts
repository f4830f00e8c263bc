import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, queryRows } from "../src/platform/db.ts";
import { spawnCove } from "../test/support/cove-process.ts";
import { customerMail, type Dovecot, startDovecot } from "./dovecot.ts";

/**
 * The import survives the process being killed half way: the real start-up (`npm start` from source) on an embedded
 * database, SIGKILL while it imports 2,000 messages, a new process on the same data directory, and in the end every
 * message filed exactly once: no duplicate, no loss.
 */

const COUNT = 2000;

let dovecot: Dovecot;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dovecot = await startDovecot();
  // Every 40th has no Message-ID: those are told apart by the hash of their source.
  dovecot.writeMaildir(
    Array.from({ length: COUNT }, (_, i) => customerMail(i, i % 40 === 0 ? { messageId: null } : {})),
  );
  dataDir = mkdtempSync(path.join(tmpdir(), "cove-imap-restart-"));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await dovecot?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function startCove(): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "warn",
    SEED_DEMO: "false",
    IMAP_ALLOW_PRIVATE_HOSTS: "true",
  };
  const child = spawnCove(env);
  children.push(child);
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  const end = Date.now() + 240_000;
  for (;;) {
    const port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
    if (port) return { child, url: `http://127.0.0.1:${port}` };
    if (child.exitCode !== null) throw new Error(`Cove exited at start:\n${out}`);
    if (Date.now() > end) throw new Error(`Cove did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Progress {
  imported: number;
  skipped: number;
  failed: number;
  remaining: number;
  total: number;
}

async function state(url: string, token: string): Promise<{ status: string; progress: Progress }> {
  const res = await fetch(`${url}/api/email/mailboxes`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const { mailboxes } = (await res.json()) as { mailboxes: { status: string; progress: Progress }[] };
  return mailboxes[0] as { status: string; progress: Progress };
}

it("killed half way and started again, imports every message exactly once", async () => {
  const first = await startCove();
  const registered = await fetch(`${first.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      organizationName: "Restart Mail",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@restart.example",
      password: "correct horse battery",
    }),
  });
  expect(registered.status).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const connected = await fetch(`${first.url}/api/email/mailboxes`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      host: dovecot.host,
      port: dovecot.port,
      tls: false,
      user: dovecot.user,
      password: dovecot.password,
    }),
  });
  expect(connected.status, await connected.clone().text()).toBe(201);

  let before: Progress;
  for (;;) {
    before = (await state(first.url, token)).progress;
    if (before.imported >= COUNT * 0.4) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // No goodbye: the process is gone mid-batch, mid-message perhaps.
  const gone = new Promise((r) => first.child.once("exit", r));
  first.child.kill("SIGKILL");
  await gone;
  expect(before.imported).toBeLessThan(COUNT);

  const second = await startCove();
  const resumed = (await state(second.url, token)).progress;
  // Where the first process stopped (the message it was filing rolled back or counted, never half).
  expect(resumed.imported).toBeGreaterThanOrEqual(before.imported);
  expect(resumed.imported).toBeLessThan(COUNT);
  let last: { status: string; progress: Progress };
  const end = Date.now() + 800_000;
  for (;;) {
    last = await state(second.url, token);
    if (last.status === "watching") break;
    if (Date.now() > end) throw new Error(`did not finish: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(last.progress).toEqual(expect.objectContaining({ total: COUNT, imported: COUNT, skipped: 0, failed: 0 }));

  const stopped = new Promise((r) => second.child.once("exit", r));
  second.child.kill("SIGTERM");
  await stopped;

  const database = await openDatabase({ kind: "embedded", dir: path.join(dataDir, "db") });
  try {
    const [tickets] = await queryRows<{ n: number; subjects: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct subject)::int as subjects from tickets where source = 'email'`,
    );
    expect(tickets).toEqual({ n: COUNT, subjects: COUNT });
    const [mail] = await queryRows<{ n: number; ids: number; hashed: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct message_id)::int as ids,
                 count(*) filter (where message_id like 'sha256.%')::int as hashed
          from email_messages where direction = 'in'`,
    );
    expect(mail).toEqual({ n: COUNT, ids: COUNT, hashed: COUNT / 40 });
  } finally {
    await database.close();
  }
});
