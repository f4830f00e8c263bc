/**
 * A small closed-loop HTTP load generator: `concurrency` clients on keep-alive connections, each sending its next request
 * as soon as the previous answer has been read in full. Latency is measured from sending to the last byte.
 *
 * The clients write ready-made request bytes on raw sockets and read an answer only as far as its status and
 * Content-Length: on two cores the generator shares the CPU with the app and the database, and Node's own HTTP client
 * cost about three times as much per request (0.15-0.37 ms against 0.04-0.06 ms), which the figures then counted as
 * the app's.
 */
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import type pg from "pg";

export interface Call {
  path: string;
  token: string;
}

export interface Endpoint {
  name: string;
  /** Taken in turn, so an endpoint can spread over many tickets or organizations. */
  calls: Call[];
  /** Work the bench does beside the load while this endpoint is measured; it returns the function that stops it. */
  alongside?: (port: number) => () => Promise<void>;
  /** Clients for this endpoint instead of the run's (1: one request at a time, the latency of a request alone). */
  concurrency?: number;
}

export interface LoadOptions {
  port: number;
  concurrency: number;
  /** Requests started in the warm-up are not recorded. */
  warmupMs: number;
  durationMs: number;
  /**
   * The CPU time (ms) the processes being measured have used so far, by process group (the app, the database): read
   * when the warm-up ends and again at the end, so a row also says what a request cost in CPU, which other work on a
   * shared machine moves far less than it moves requests a second.
   */
  cpu?: () => Promise<number[]>;
}

export interface LoadResult {
  name: string;
  /** Latency samples: requests sent after the warm-up (or, if slowerThanWindow, answers that arrived after it). */
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** pagination.total of the first answer, for lists and searches. */
  matches: number | null;
  /** No request sent after the warm-up came back before the window closed (see drive). */
  slowerThanWindow: boolean;
  /** CPU ms per answer after the warm-up, by the groups of LoadOptions.cpu (null: not measured). */
  cpuPerRequest: number[] | null;
}

interface Answer {
  status: number;
  body: string;
}

function get(agent: http.Agent, port: number, call: Call, keepBody: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { agent, host: "127.0.0.1", port, path: call.path, headers: { authorization: `Bearer ${call.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => {
          if (keepBody) chunks.push(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

function totalOf(body: string): number | null {
  const parsed: unknown = JSON.parse(body);
  if (parsed && typeof parsed === "object" && "pagination" in parsed) {
    const { pagination } = parsed as { pagination: { total?: unknown } };
    return typeof pagination.total === "number" ? pagination.total : null;
  }
  return null;
}

/** The bytes of a GET with its bearer token, as the clients send it. */
const requestBytes = (call: Call) =>
  Buffer.from(`GET ${call.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${call.token}\r\n\r\n`, "latin1");

const HEAD_END = Buffer.from("\r\n\r\n");

/**
 * One keep-alive connection that sends a request and resolves with the answer's status once its last byte is in.
 * Answers carry Content-Length (the app never streams a JSON answer); anything else stops the run.
 */
function connection(port: number): Promise<{ ask(bytes: Buffer): Promise<number>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setNoDelay(true);
    let pending: { resolve(status: number): void; reject(err: Error): void } | null = null;
    let head: Buffer | null = null;
    let status = 0;
    let remaining = -1;
    const fail = (err: Error) => {
      pending?.reject(err);
      pending = null;
    };
    socket.on("data", (chunk: Buffer) => {
      if (remaining < 0) {
        head = head ? Buffer.concat([head, chunk]) : chunk;
        const end = head.indexOf(HEAD_END);
        if (end < 0) return;
        const text = head.toString("latin1", 0, end);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
        if (!length?.[1]) return fail(new Error(`an answer without Content-Length: ${text.slice(0, 200)}`));
        status = Number(text.slice(9, 12));
        remaining = Number(length[1]) - (head.length - end - HEAD_END.length);
        head = null;
      } else {
        remaining -= chunk.length;
      }
      if (remaining <= 0) {
        remaining = -1;
        const done = pending;
        pending = null;
        done?.resolve(status);
      }
    });
    socket.on("error", (err) => {
      fail(err);
      reject(err);
    });
    socket.on("close", () => fail(new Error("the app closed a connection")));
    socket.on("connect", () =>
      resolve({
        ask: (bytes) =>
          new Promise<number>((resolveAsk, rejectAsk) => {
            pending = { resolve: resolveAsk, reject: rejectAsk };
            socket.write(bytes);
          }),
        close: () => socket.destroy(),
      }),
    );
  });
}

export async function drive(endpoint: Endpoint, opts: LoadOptions): Promise<LoadResult> {
  const { calls } = endpoint;
  const first = calls[0];
  if (!first) throw new Error(`${endpoint.name}: no requests to send`);
  const agent = new http.Agent({ keepAlive: false });
  // One request first: it must succeed, and its total tells how many tickets the list or search matched.
  const probe = await get(agent, opts.port, first, true);
  agent.destroy();
  if (probe.status !== 200) {
    throw new Error(`${endpoint.name}: GET ${first.path} answered ${probe.status}: ${probe.body.slice(0, 300)}`);
  }
  const matches = totalOf(probe.body);
  const requests = calls.map(requestBytes);
  const connections = await Promise.all(Array.from({ length: opts.concurrency }, () => connection(opts.port)));
  try {
    // Latency: the requests sent after the warm-up (all of them awaited, none sent after the window). An endpoint
    // slower than the window has none: then every answer that arrived after the warm-up counts, and the row says so.
    // Throughput: every answer that arrived after the warm-up, over the time until the last one.
    const start = performance.now();
    const recordFrom = start + opts.warmupMs;
    const stopAt = recordFrom + opts.durationMs;
    let next = 0;
    let errors = 0;
    let answered = 0;
    let lastEnd = recordFrom;
    const sentInWindow: number[] = [];
    const arrivedInWindow: number[] = [];
    let cpuAtStart: Promise<number[]> | null = null;
    const cpuTimer = opts.cpu ? setTimeout(() => (cpuAtStart = opts.cpu?.() ?? null), opts.warmupMs) : null;
    const client = async (conn: (typeof connections)[number]) => {
      for (;;) {
        const sentAt = performance.now();
        if (sentAt >= stopAt) return;
        const status = await conn.ask(requests[next++ % requests.length] as Buffer);
        const doneAt = performance.now();
        if (doneAt < recordFrom) continue;
        lastEnd = Math.max(lastEnd, doneAt);
        if (status !== 200) {
          errors++;
          continue;
        }
        answered++;
        arrivedInWindow.push(doneAt - sentAt);
        if (sentAt >= recordFrom) sentInWindow.push(doneAt - sentAt);
      }
    };
    await Promise.all(connections.map(client));
    if (cpuTimer) clearTimeout(cpuTimer);
    const cpuFrom = cpuAtStart ? await cpuAtStart : null;
    const cpuTo = cpuFrom && opts.cpu ? await opts.cpu() : null;
    const cpuPerRequest =
      cpuFrom && cpuTo ? cpuTo.map((ms, i) => (ms - (cpuFrom[i] ?? 0)) / Math.max(1, answered + errors)) : null;

    const slowerThanWindow = sentInWindow.length === 0;
    const sorted = Float64Array.from(slowerThanWindow ? arrivedInWindow : sentInWindow).sort();
    const seconds = (lastEnd - recordFrom) / 1000;
    return {
      name: endpoint.name,
      requests: sorted.length,
      errors,
      seconds,
      perSecond: seconds > 0 ? answered / seconds : 0,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
      matches,
      slowerThanWindow,
      cpuPerRequest,
    };
  } finally {
    for (const conn of connections) conn.close();
  }
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "-");

/**
 * A Markdown table: endpoint, requests, seconds measured, req/s, p50, p90, p99, max (ms), errors, matched tickets, and
 * the CPU ms per request of each group that was measured (cpuNames: their column names).
 */
export function table(results: LoadResult[], cpuNames: string[] = []): string {
  const header = [
    "endpoint",
    "requests",
    "s",
    "req/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "errors",
    "matches",
    ...cpuNames.map((name) => `${name} CPU ms/req`),
  ];
  const rows = results.map((r) => [
    r.slowerThanWindow ? `${r.name} (*)` : r.name,
    String(r.requests),
    r.seconds.toFixed(1),
    r.perSecond.toFixed(r.perSecond < 10 ? 1 : 0),
    ms(r.p50),
    ms(r.p90),
    ms(r.p99),
    ms(r.max),
    String(r.errors),
    r.matches === null ? "" : String(r.matches),
    ...cpuNames.map((_, i) => (r.cpuPerRequest?.[i] === undefined ? "" : r.cpuPerRequest[i].toFixed(2))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  const notes = results.some((r) => r.slowerThanWindow)
    ? [
        "",
        "(*) slower than the window: no request sent after the warm-up was answered before it closed, so the latencies are those of the answers that arrived after the warm-up.",
      ]
    : [];
  return [line(header), rule, ...rows.map(line), ...notes].join("\n");
}

/** Clock ticks per second of the CPU times in /proc. */
const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

/** The CPU ms (user and system) a process of this machine has used so far, from /proc; throws when there is none. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name in brackets, from the state (field 3): utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** processCpuMs, or 0 when the process has gone. */
function cpuMsOf(pid: number): number {
  try {
    return processCpuMs(pid);
  } catch {
    return 0;
  }
}

/**
 * What the app process and the database's processes serving its requests have used in CPU so far: [app, database].
 * The database's are the server processes connected to the benchmark's database (dbName). The pool closes a connection that
 * idles (as it does under the answer cache) and opens another, so the database's figure adds up what each process
 * used since it was last read: a process gone since then takes its last few milliseconds with it, never more.
 */
export function cpuSampler(appPid: number, admin: pg.Client | null, dbName: string): () => Promise<number[]> {
  const lastRead = new Map<number, number>();
  let database = 0;
  return async () => {
    const app = cpuMsOf(appPid);
    if (!admin) return [app];
    const backends = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [dbName],
    );
    const current = new Set(backends.rows.map((r) => r.pid));
    for (const pid of lastRead.keys()) if (!current.has(pid)) lastRead.delete(pid);
    for (const pid of current) {
      const used = cpuMsOf(pid);
      database += Math.max(0, used - (lastRead.get(pid) ?? 0));
      lastRead.set(pid, used);
    }
    return [app, database];
  };
}
