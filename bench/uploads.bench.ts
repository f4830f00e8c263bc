/**
 * npm run bench:uploads: another organization's ticket list on the embedded database (PGlite, on disk: one connection
 * for everything), alone and while one organization's chat visitors and agents upload 5 MB files without pause. An
 * upload's bytes are written in parts, each a short transaction of its own, as they arrive, so a read waits for a part
 * at most, never for a whole file. It measures and prints; it asserts nothing.
 *
 * The app runs in this process and is called through inject (no sockets); each upload's body is a stream of 64 KB
 * chunks, as a network delivers it. Every visitor and agent uploads from an address of its own. The answer cache is
 * off, so every ticket list is read from the database.
 *
 * The ticket list is read every 100 ms (one after another; each timed from when it was due): 20 times alone, then for
 * BENCH_SECONDS while the uploads go on (so the reads meet the uploads at every stage: streaming in, being written).
 *
 * Environment: BENCH_VISITORS (2) and BENCH_AGENTS (2) uploading at once; BENCH_SECONDS (30); BENCH_FILE_MB (5).
 * Flag --quick: 10 seconds.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buildApp } from "../apps/api/src/app.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";

const quick = process.argv.includes("--quick");
const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
};
const config = {
  visitors: num("BENCH_VISITORS", 2),
  agents: num("BENCH_AGENTS", 2),
  seconds: num("BENCH_SECONDS", quick ? 10 : 30),
  fileBytes: Math.round(num("BENCH_FILE_MB", 5) * 1_000_000),
};
const CHUNK = 64 * 1024;

const dir = mkdtempSync(path.join(os.tmpdir(), "cove-bench-uploads-"));
const database = await openDatabase({ kind: "embedded", dir: path.join(dir, "db") });
const app = await buildApp({
  database,
  mail: { smtpUrl: undefined, from: "Cove <bench@cove.test>", outboxDir: path.join(dir, "outbox") },
  publicUrl: "http://127.0.0.1",
  answerCacheBytes: 0,
  registrationsPerHour: 1000,
  attachmentLimits: { max_file_bytes: Math.max(config.fileBytes, 5_000_000), max_message_bytes: 1e9, max_files: 100 },
});
await app.ready();

let addressSeq = 1;
const newAddress = () => `10.9.${Math.floor(addressSeq / 250)}.${(addressSeq++ % 250) + 1}`;

async function register(name: string) {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/register",
    remoteAddress: newAddress(),
    payload: {
      organizationName: name,
      firstName: "Bench",
      lastName: "Admin",
      email: `bench-${Date.now()}-${addressSeq}@bench.cove.test`,
      password: "benchmark-password",
    },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
  const body = res.json() as { token: string; user: { organizationSlug: string } };
  return { token: body.token, slug: body.user.organizationSlug };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function post(token: string | null, url: string, payload: unknown) {
  const res = await app.inject({
    method: "POST",
    url,
    headers: token ? auth(token) : {},
    payload: payload as object,
    remoteAddress: newAddress(),
  });
  if (res.statusCode !== 201) throw new Error(`${url} failed: ${res.body}`);
  return res.json();
}

const ticketFields = (i: number) => ({
  subject: `Question ${i}`,
  description: "Where is my order?",
  requester_name: "Ana Ruiz",
  requester_email: `ana${i}@example.com`,
});

const uploading = await register("Uploading shop");
const reading = await register("Reading shop");
for (let i = 0; i < 50; i++) await post(reading.token, "/api/tickets", ticketFields(i));
const target = (await post(uploading.token, "/api/tickets", ticketFields(0))).ticket.id as string;

/** Each uploader: where it sends, with which token, from which address. */
const uploaders: { kind: string; url: string; token: string; address: string }[] = [];
for (let v = 0; v < config.visitors; v++) {
  const chat = await post(null, `/api/public/${uploading.slug}/chat/sessions`, { name: `Visitor ${v}` });
  uploaders.push({
    kind: "visitor",
    url: `/api/public/${uploading.slug}/chat/sessions/${chat.session.id}/files`,
    token: chat.token,
    address: newAddress(),
  });
}
for (let a = 0; a < config.agents; a++) {
  uploaders.push({
    kind: "agent",
    url: `/api/tickets/${target}/attachments`,
    token: uploading.token,
    address: newAddress(),
  });
}

const file = randomBytes(config.fileBytes);

/** A file's bytes as a network delivers them: 64 KB at a time, with a turn of the event loop between. */
function streamed(bytes: Buffer): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += CHUNK) {
        await new Promise((resolve) => setImmediate(resolve));
        yield bytes.subarray(at, at + CHUNK);
      }
    })(),
  );
}

/**
 * Reads due every 100 ms, each timed from when it was due: the embedded database runs on this process's thread, so a
 * read that could not even start (the thread busy writing a file) counts its wait, as a client's would.
 */
async function readTimes(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; !until(); i++) {
    const due = start + i * 100;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const res = await app.inject({ method: "GET", url: "/api/tickets", headers: auth(reading.token) });
    if (res.statusCode !== 200) throw new Error(`ticket list failed: ${res.body}`);
    times.push(performance.now() - due);
  }
  return times;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
function line(label: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(0).padStart(8);
  const figures = `${f(quantile(sorted, 0.5))}${f(quantile(sorted, 0.95))}${f(sorted.at(-1) ?? 0)}`;
  console.log(`${label.padEnd(34)}${figures}${String(times.length).padStart(7)}`);
}

console.log("\nEmbedded database (PGlite, on disk): another organization's ticket list (50 tickets)");
console.log(
  `uploads: ${config.visitors} chat visitors and ${config.agents} agents, ${(config.fileBytes / 1e6).toFixed(1)} MB files, one after another`,
);
console.log(`${"".padEnd(34)}  median     p95     max (ms)  reads`);
const count = (n: number) => {
  let i = 0;
  return () => i++ >= n;
};
await readTimes(count(5)); // warm-up
line("alone", await readTimes(count(20)));

let running = true;
const outcomes = new Map<number, number>();
let uploadMs = 0;
const loops = uploaders.map(async (u) => {
  while (running) {
    const started = performance.now();
    const res = await app.inject({
      method: "POST",
      url: `${u.url}?filename=big.bin`,
      headers: { ...auth(u.token), "content-type": "application/octet-stream", "content-length": String(file.length) },
      payload: streamed(file),
      remoteAddress: u.address,
    });
    outcomes.set(res.statusCode, (outcomes.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode === 201) uploadMs += performance.now() - started;
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
const ends = performance.now() + config.seconds * 1000;
line("during the uploads", await readTimes(() => performance.now() >= ends));
running = false;
await Promise.all(loops);
const stored = outcomes.get(201) ?? 0;
console.log(
  `uploads answered: ${[...outcomes].map(([status, n]) => `${n} x ${status}`).join(", ")}; ` +
    `a stored upload took ${stored ? (uploadMs / stored / 1000).toFixed(1) : "-"} s on average`,
);

await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
