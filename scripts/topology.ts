// `npm run topology`: Cove as deploy/ describes it, on this machine. A fresh PostgreSQL database, PgBouncer in front
// of it (transaction pooling), 3 instances of the built app (each its own port; requests through PgBouncer, the
// session-bound work direct), HAProxy in front of them and Prometheus scraping them. Everything is started from the
// files in deploy/ with ports and paths filled into a temporary directory; Ctrl-C stops it all and drops the database.
// The topology test (scripts/topology.e2e.ts) uses startTopology and the handles it returns.
//
// Needs Debian's haproxy, pgbouncer, prometheus and a PostgreSQL server (TOPOLOGY_PG_URL, by default
// postgres://postgres@127.0.0.1:5432/postgres: a role that may create databases).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** deploy/, or a copy of it to try edits on (COVE_DEPLOY_DIR). */
const DEPLOY = process.env.COVE_DEPLOY_DIR ? path.resolve(process.env.COVE_DEPLOY_DIR) : path.join(ROOT, "deploy");

/** A template of deploy/ with every {{NAME}} replaced; a placeholder left unfilled is a mistake in this script. */
export function fill(template: string, values: Record<string, string>): string {
  const out = template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, name: string) => {
    // The files' comments name the convention itself.
    if (name === "DOUBLE_BRACES") return whole;
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/ placeholder ${whole} has no value`);
    return value;
  });
  return out;
}

/** The environment file's variables (deploy/cove.env filled in): KEY=value lines; empty values are left out. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[2]) env[match[1] as string] = match[2];
  }
  return env;
}

/** What cove@.service runs for instance `port`: its Environment= lines (with %i) and ExecStart, without systemd. */
export function readUnit(port: number): { env: Record<string, string>; command: string[] } {
  const unit = readFileSync(path.join(DEPLOY, "cove@.service"), "utf8").replaceAll("%i", String(port));
  const env: Record<string, string> = {};
  let command: string[] = [];
  for (const line of unit.split("\n")) {
    const environment = /^Environment=([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (environment) env[environment[1] as string] = environment[2] as string;
    const exec = /^ExecStart=(.*)$/.exec(line.trim());
    if (exec) command = (exec[1] as string).split(/\s+/);
  }
  return { env, command };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > until) throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

async function answers(url: string, init?: RequestInit): Promise<boolean> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.ok;
}

/** A started program: its process, and a promise of its exit code (or the signal that ended it). */
export interface Running {
  child: ChildProcess;
  exited: Promise<number | string>;
}

function start(
  name: string,
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; log: string },
): Running {
  const log = createWriteStream(opts.log, { flags: "a" });
  const child = spawn(command, args, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => {
      log.end();
      resolve(code ?? signal ?? -1);
    });
    child.on("error", (err) => {
      log.write(`${name} could not start: ${err.message}\n`);
      resolve(-1);
    });
  });
  return { child, exited };
}

async function stopProcess(running: Running | null, signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
  running.child.kill(signal);
  const done = await Promise.race([running.exited, sleep(timeoutMs).then(() => "timeout")]);
  if (done === "timeout") {
    running.child.kill("SIGKILL");
    await running.exited;
  }
}

export interface Instance {
  /** 1-based, as HAProxy's server names (cove1, cove2, cove3). */
  index: number;
  name: string;
  port: number;
  url: string;
  log: string;
  running: Running | null;
}

export interface TopologyOptions {
  instances?: number;
  /** Seed the demo organization (the first instance seeds it before the others start). */
  demo?: boolean;
  /** Drain settings of the instances (DRAIN_DELAY_MS, SHUTDOWN_GRACE_MS). */
  drainDelayMs?: number;
  shutdownGraceMs?: number;
  /** More variables for every instance (e.g. AI_SENTENCE_ENCODER=false to save memory). */
  env?: Record<string, string>;
  /** Start the instances one after another instead of all at once. */
  oneByOne?: boolean;
  /** The PostgreSQL server to create the database on. */
  pgUrl?: string;
}

export interface Topology {
  dir: string;
  /** HAProxy's address: what people open. */
  url: string;
  statsUrl: string;
  prometheusUrl: string;
  database: { name: string; directUrl: string; pooledUrl: string };
  metricsToken: string;
  instances: Instance[];
  /** Starts (again) instance i and waits until it answers /api/ready (/api/health before the app has it). */
  startInstance(instance: Instance): Promise<void>;
  /** Sends the signal and waits for the exit; answers the exit code (0 after a clean drain) or the signal. */
  stopInstance(instance: Instance, signal?: NodeJS.Signals): Promise<number | string>;
  /** HAProxy's view of one server: "UP", "DOWN", "MAINT", ... */
  serverStatus(instance: Instance): Promise<string>;
  /** Waits until HAProxy sees the instance with this status. */
  waitForStatus(instance: Instance, status: "UP" | "DOWN", timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const BIN = { haproxy: "/usr/sbin/haproxy", pgbouncer: "/usr/sbin/pgbouncer", prometheus: "/usr/bin/prometheus" };

/** What the parts share while starting: the temporary directory, and how to stop what has started (in reverse). */
interface Context {
  dir: string;
  stops: (() => Promise<void>)[];
}

const template = (name: string) => readFileSync(path.join(DEPLOY, name), "utf8");

async function adminQuery(server: URL, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh database (dropped on stop), and PgBouncer in front of it from deploy/pgbouncer.ini. */
async function startDatabase(ctx: Context, server: URL) {
  const name = `cove_ops_deploy_topology_${process.pid}_${randomBytes(3).toString("hex")}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  ctx.stops.push(() => adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const directUrl = new URL(server);
  directUrl.pathname = `/${name}`;

  const port = await freePort();
  const dir = path.join(ctx.dir, "pgbouncer");
  mkdirSync(dir);
  const userlist = path.join(dir, "userlist.txt");
  writeFileSync(userlist, `"${decodeURIComponent(server.username || "postgres")}" ""\n`);
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    fill(template("pgbouncer.ini"), {
      DATABASE: name,
      PG_HOST: server.hostname,
      PG_PORT: server.port || "5432",
      LISTEN_ADDR: "127.0.0.1",
      LISTEN_PORT: String(port),
      RUN_DIR: dir,
      LOG_FILE: path.join(dir, "pgbouncer.log"),
      // The local PostgreSQL of a trial run trusts local connections; a real one uses scram-sha-256.
      AUTH_TYPE: "trust",
      AUTH_FILE: userlist,
    }),
  );
  const args = [ini];
  // PgBouncer refuses to run as root: as root, it runs as postgres, which must write its files in there.
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
    if (Number.isInteger(uid) && uid > 0) chownSync(dir, uid, -1);
    args.unshift("-u", "postgres");
  }
  const bouncer = start("pgbouncer", BIN.pgbouncer, args, { log: path.join(ctx.dir, "pgbouncer.out") });
  ctx.stops.push(() => stopProcess(bouncer, "SIGINT"));
  const pooledUrl = new URL(directUrl);
  pooledUrl.host = `127.0.0.1:${port}`;
  await waitFor("PgBouncer", async () => {
    const client = new pg.Client({ connectionString: pooledUrl.toString() });
    await client.connect();
    await client.query("SELECT 1");
    await client.end();
    return true;
  });
  return { name, directUrl: directUrl.toString(), pooledUrl: pooledUrl.toString() };
}

/** Whether an instance is ready: /api/ready answers 200 (before the app had it: /api/health answers). */
async function instanceReady(instance: Instance): Promise<boolean> {
  const ready = await fetch(`${instance.url}/api/ready`, { signal: AbortSignal.timeout(2000) });
  await ready.arrayBuffer();
  if (ready.status === 200) return true;
  return ready.status === 404 && (await answers(`${instance.url}/api/health`));
}

/** Starts one instance as cove@<port>.service would, with the shared settings, and waits until it is ready. */
async function launchInstance(ctx: Context, instance: Instance, env: Record<string, string | undefined>) {
  const unit = readUnit(instance.port);
  // The unit's paths are a server's (/var/lib/cove/<port>, /opt/cove): here the temporary directory and the repository.
  const dataDir = path.join(ctx.dir, `data-${instance.port}`);
  mkdirSync(dataDir, { recursive: true });
  const [command, ...args] = unit.command;
  const running = start(instance.name, command === "/usr/bin/node" ? process.execPath : (command as string), args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...unit.env,
      ...env,
      PORT: String(instance.port),
      DATA_DIR: dataDir,
    },
    log: instance.log,
  });
  instance.running = running;
  const exitedEarly = running.exited.then(async (code) => {
    await sleep(100);
    const tail = existsSync(instance.log) ? readFileSync(instance.log, "utf8").split("\n").slice(-25).join("\n") : "";
    throw new Error(`${instance.name} exited (${code}) while starting:\n${tail}`);
  });
  exitedEarly.catch(() => {});
  await Promise.race([
    exitedEarly,
    waitFor(`${instance.name} (port ${instance.port})`, () => instanceReady(instance), 120_000),
  ]);
}

/** HAProxy from deploy/haproxy.cfg, in front of the instances; answers its status page's address. */
async function startHaproxy(
  ctx: Context,
  port: number,
  instances: Instance[],
  env: Record<string, string | undefined>,
) {
  const statsPort = await freePort();
  const limitMb = Number(env.ATTACHMENT_MAX_FILE_MB ?? 5);
  const servers: Record<string, string> = {};
  for (let i = 1; i <= 3; i++) {
    const instance = instances[i - 1];
    // Fewer instances than the file's three example lines: the rest are disabled.
    servers[`INSTANCE_${i}`] = instance ? `127.0.0.1:${instance.port}` : "127.0.0.1:1 disabled";
  }
  let config = fill(template("haproxy.cfg"), {
    LOG_TARGET: "stdout format raw local0",
    LISTEN: `127.0.0.1:${port}`,
    STATS_LISTEN: `127.0.0.1:${statsPort}`,
    BODY_LIMIT_BYTES: String(limitMb * 1024 * 1024 + 256 * 1024),
    ...servers,
  });
  // More instances than the file's three example lines: one more line each, like the others.
  for (const instance of instances.slice(3)) {
    config = config.replace(
      /( {4}server cove3 [^\n]*\n)/,
      `$1    server ${instance.name} 127.0.0.1:${instance.port} check\n`,
    );
  }
  const file = path.join(ctx.dir, "haproxy.cfg");
  writeFileSync(file, config);
  const check = spawnSync(BIN.haproxy, ["-c", "-q", "-f", file], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy.cfg is not valid:\n${check.stderr}${check.stdout}`);
  const haproxy = start("haproxy", BIN.haproxy, ["-db", "-f", file], { log: path.join(ctx.dir, "haproxy.log") });
  ctx.stops.push(() => stopProcess(haproxy));
  return `http://127.0.0.1:${statsPort}/`;
}

/** Prometheus from deploy/prometheus.yml, scraping every instance; answers its address. */
async function startPrometheus(ctx: Context, instances: Instance[], metricsToken: string) {
  const port = await freePort();
  const dir = path.join(ctx.dir, "prometheus");
  mkdirSync(dir);
  const tokenFile = path.join(dir, "metrics-token");
  writeFileSync(tokenFile, metricsToken, { mode: 0o600 });
  const file = path.join(dir, "prometheus.yml");
  writeFileSync(
    file,
    fill(template("prometheus.yml"), {
      SCRAPE_INTERVAL: "2s",
      METRICS_TOKEN_FILE: tokenFile,
      COVE_TARGETS: instances.map((i) => `"127.0.0.1:${i.port}"`).join(", "),
    }),
  );
  const args = [
    `--config.file=${file}`,
    `--storage.tsdb.path=${path.join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ];
  const prometheus = start("prometheus", BIN.prometheus, args, { log: path.join(ctx.dir, "prometheus.log") });
  ctx.stops.push(() => stopProcess(prometheus));
  const url = `http://127.0.0.1:${port}`;
  await waitFor("Prometheus", () => answers(`${url}/-/ready`));
  return url;
}

/** HAProxy's view of one server, from its status page's CSV: "UP", "DOWN", "MAINT", ... */
async function serverStatus(statsUrl: string, instance: Instance): Promise<string> {
  const res = await fetch(`${statsUrl};csv`, { signal: AbortSignal.timeout(2000) });
  const rows = (await res.text()).split("\n").map((line) => line.split(","));
  const header = (rows[0] ?? []).map((h) => h.replace(/^# /, ""));
  const row = rows.find((r) => r[0] === "cove" && r[1] === instance.name);
  return row?.[header.indexOf("status")] ?? "missing";
}

export async function startTopology(opts: TopologyOptions = {}): Promise<Topology> {
  for (const [name, bin] of Object.entries(BIN)) {
    if (!existsSync(bin)) throw new Error(`${name} is not installed (${bin}): apt-get install ${name}`);
  }
  if (!existsSync(path.join(ROOT, "apps/api/dist/main.js")))
    throw new Error("The app is not built: run npm run build first.");
  const ctx: Context = { dir: mkdtempSync(path.join(tmpdir(), "cove-topology-")), stops: [] };
  // Readable by PgBouncer's user (postgres) when run as root.
  chmodSync(ctx.dir, 0o755);
  const stop = async () => {
    for (const next of ctx.stops.reverse()) await next().catch((err: unknown) => console.error(err));
    ctx.stops.length = 0;
    rmSync(ctx.dir, { recursive: true, force: true });
  };
  try {
    const server = new URL(opts.pgUrl ?? process.env.TOPOLOGY_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
    const database = await startDatabase(ctx, server);

    // The instances' shared settings, from deploy/cove.env.
    const metricsToken = randomBytes(24).toString("hex");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const envFile = path.join(ctx.dir, "cove.env");
    writeFileSync(
      envFile,
      fill(template("cove.env"), {
        HOST: "127.0.0.1",
        DATABASE_URL: database.pooledUrl,
        DATABASE_DIRECT_URL: database.directUrl,
        SECRETS_KEY: randomBytes(32).toString("hex"),
        PUBLIC_URL: url,
        SEED_DEMO: "false",
        SMTP_URL: "",
        MAIL_FROM: "Cove <no-reply@cove.localhost>",
        METRICS_TOKEN: metricsToken,
        DRAIN_DELAY_MS: String(opts.drainDelayMs ?? 3000),
        SHUTDOWN_GRACE_MS: String(opts.shutdownGraceMs ?? 10_000),
        PAYMENT_PROVIDER: "test",
        INBOUND_DOMAIN: "",
      }),
    );
    const env = { ...parseEnvFile(readFileSync(envFile, "utf8")), ...opts.env };

    const instances: Instance[] = [];
    for (let index = 1; index <= (opts.instances ?? 3); index++) {
      const instancePort = await freePort();
      instances.push({
        index,
        name: `cove${index}`,
        port: instancePort,
        url: `http://127.0.0.1:${instancePort}`,
        log: path.join(ctx.dir, `cove-${instancePort}.log`),
        running: null,
      });
    }
    ctx.stops.push(async () => {
      await Promise.all(instances.map((i) => stopProcess(i.running, "SIGTERM", 30_000)));
    });
    if (opts.demo) {
      const [first, ...rest] = instances as [Instance, ...Instance[]];
      await launchInstance(ctx, first, { ...env, SEED_DEMO: "true" });
      await Promise.all(rest.map((i) => launchInstance(ctx, i, env)));
    } else if (opts.oneByOne) {
      for (const instance of instances) await launchInstance(ctx, instance, env);
    } else {
      // All at once, as after a reboot: the migration lock lets one migrate while the others wait.
      await Promise.all(instances.map((i) => launchInstance(ctx, i, env)));
    }

    const statsUrl = await startHaproxy(ctx, port, instances, env);
    const waitForStatus = (instance: Instance, status: "UP" | "DOWN", timeoutMs = 30_000) =>
      waitFor(
        `HAProxy seeing ${instance.name} ${status}`,
        async () => (await serverStatus(statsUrl, instance)).startsWith(status),
        timeoutMs,
      );
    for (const instance of instances) await waitForStatus(instance, "UP");
    const prometheusUrl = await startPrometheus(ctx, instances, metricsToken);

    return {
      dir: ctx.dir,
      url,
      statsUrl,
      prometheusUrl,
      database,
      metricsToken,
      instances,
      startInstance: (instance) => launchInstance(ctx, instance, env),
      stopInstance: async (instance, signal = "SIGTERM") => {
        if (!instance.running) return "not running";
        instance.running.child.kill(signal);
        return instance.running.exited;
      },
      serverStatus: (instance) => serverStatus(statsUrl, instance),
      waitForStatus,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function cli(argv: string[]) {
  if (!argv.includes("--no-build")) {
    console.log("Building (npm run build; --no-build skips it)...");
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  console.log("Starting PostgreSQL database, PgBouncer, 3 Cove instances, HAProxy and Prometheus...");
  const topology = await startTopology({ demo: true });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping everything and dropping the database...");
    await topology.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  console.log(`
Cove (through HAProxy):   ${topology.url}
HAProxy's status page:    ${topology.statsUrl}
Prometheus:               ${topology.prometheusUrl}  (try: up{job="cove"})
Instances:                ${topology.instances.map((i) => i.url).join("  ")}
Database:                 ${topology.database.directUrl} (through PgBouncer: ${topology.database.pooledUrl})
Metrics token:            ${topology.metricsToken}
Files and logs:           ${topology.dir}

Demo sign-in: the demo organization's login (README). Ctrl-C stops everything and drops the database.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
