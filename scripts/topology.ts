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
const DEPLOY = path.join(ROOT, "deploy");

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

export async function startTopology(opts: TopologyOptions = {}): Promise<Topology> {
  const count = opts.instances ?? 3;
  for (const [name, bin] of Object.entries(BIN)) {
    if (!existsSync(bin)) throw new Error(`${name} is not installed (${bin}): apt-get install ${name}`);
  }
  const main = path.join(ROOT, "apps/api/dist/main.js");
  if (!existsSync(main)) throw new Error("The app is not built: run npm run build first.");

  const dir = mkdtempSync(path.join(tmpdir(), "cove-topology-"));
  // PgBouncer refuses to run as root; as root, it runs as postgres, which must read its files in here.
  chmodSync(dir, 0o755);
  const processes: Running[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(err));
    stops.length = 0;
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const pgUrl = new URL(opts.pgUrl ?? process.env.TOPOLOGY_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
    const dbName = `cove_ops_deploy_topology_${process.pid}_${randomBytes(3).toString("hex")}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: pgUrl.toString() });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${dbName}`);
    stops.push(() => admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    const user = decodeURIComponent(pgUrl.username || "postgres");
    const directUrl = new URL(pgUrl);
    directUrl.pathname = `/${dbName}`;

    // PgBouncer, from deploy/pgbouncer.ini.
    const bouncerPort = await freePort();
    const bouncerDir = path.join(dir, "pgbouncer");
    mkdirSync(bouncerDir);
    const userlist = path.join(bouncerDir, "userlist.txt");
    writeFileSync(userlist, `"${user}" ""\n`);
    const bouncerIni = path.join(bouncerDir, "pgbouncer.ini");
    writeFileSync(
      bouncerIni,
      fill(readFileSync(path.join(DEPLOY, "pgbouncer.ini"), "utf8"), {
        DATABASE: dbName,
        PG_HOST: pgUrl.hostname,
        PG_PORT: pgUrl.port || "5432",
        LISTEN_ADDR: "127.0.0.1",
        LISTEN_PORT: String(bouncerPort),
        RUN_DIR: bouncerDir,
        LOG_FILE: path.join(bouncerDir, "pgbouncer.log"),
        // The local PostgreSQL of a trial run trusts local connections; a real one uses scram-sha-256.
        AUTH_TYPE: "trust",
        AUTH_FILE: userlist,
      }),
    );
    const bouncerArgs = [bouncerIni];
    if (process.getuid?.() === 0) {
      const postgres = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
      const uid = Number(postgres.stdout.trim());
      if (Number.isInteger(uid) && uid > 0) chownSync(bouncerDir, uid, -1);
      bouncerArgs.unshift("-u", "postgres");
    }
    const bouncer = start("pgbouncer", BIN.pgbouncer, bouncerArgs, { log: path.join(dir, "pgbouncer.out") });
    processes.push(bouncer);
    stops.push(() => stopProcess(bouncer, "SIGINT"));
    const pooledUrl = new URL(directUrl);
    pooledUrl.host = `127.0.0.1:${bouncerPort}`;
    await waitFor("PgBouncer", async () => {
      const client = new pg.Client({ connectionString: pooledUrl.toString() });
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return true;
    });

    // The instances' shared settings, from deploy/cove.env.
    const metricsToken = randomBytes(24).toString("hex");
    const haproxyPort = await freePort();
    const url = `http://127.0.0.1:${haproxyPort}`;
    const envFile = path.join(dir, "cove.env");
    writeFileSync(
      envFile,
      fill(readFileSync(path.join(DEPLOY, "cove.env"), "utf8"), {
        HOST: "127.0.0.1",
        DATABASE_URL: pooledUrl.toString(),
        DATABASE_DIRECT_URL: directUrl.toString(),
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
    const shared = parseEnvFile(readFileSync(envFile, "utf8"));

    const instances: Instance[] = [];
    for (let index = 1; index <= count; index++) {
      const port = await freePort();
      instances.push({
        index,
        name: `cove${index}`,
        port,
        url: `http://127.0.0.1:${port}`,
        log: path.join(dir, `cove-${port}.log`),
        running: null,
      });
    }

    const startInstance = async (instance: Instance, extra: Record<string, string> = {}) => {
      const unit = readUnit(instance.port);
      // The unit's paths are a server's (/var/lib/cove/<port>, /opt/cove): here they live in the temporary directory
      // and the repository.
      const dataDir = path.join(dir, `data-${instance.port}`);
      mkdirSync(dataDir, { recursive: true });
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...shared,
        ...unit.env,
        DATA_DIR: dataDir,
        ...opts.env,
        ...extra,
      };
      const [command, ...args] = unit.command;
      const running = start(instance.name, command === "/usr/bin/node" ? process.execPath : (command as string), args, {
        env,
        cwd: ROOT,
        log: instance.log,
      });
      instance.running = running;
      processes.push(running);
      const exitedEarly = running.exited.then(async (code) => {
        await sleep(100);
        const tail = existsSync(instance.log)
          ? readFileSync(instance.log, "utf8").split("\n").slice(-25).join("\n")
          : "";
        throw new Error(`${instance.name} exited (${code}) while starting:\n${tail}`);
      });
      await Promise.race([
        exitedEarly,
        waitFor(
          `${instance.name} (port ${instance.port})`,
          async () => {
            const ready = await fetch(`${instance.url}/api/ready`, { signal: AbortSignal.timeout(2000) });
            await ready.arrayBuffer();
            if (ready.status === 200) return true;
            // Before the app has /api/ready, its liveness check.
            return ready.status === 404 && (await answers(`${instance.url}/api/health`));
          },
          120_000,
        ),
      ]);
      exitedEarly.catch(() => {});
    };
    stops.push(async () => {
      await Promise.all(instances.map((i) => stopProcess(i.running, "SIGTERM", 30_000)));
    });

    if (opts.demo) {
      const [first, ...rest] = instances as [Instance, ...Instance[]];
      await startInstance(first, { SEED_DEMO: "true" });
      await Promise.all(rest.map((i) => startInstance(i)));
    } else if (opts.oneByOne) {
      for (const instance of instances) await startInstance(instance);
    } else {
      // All at once, as after a reboot: the migration lock lets one migrate while the others wait.
      await Promise.all(instances.map((i) => startInstance(i)));
    }

    // HAProxy, from deploy/haproxy.cfg.
    const statsPort = await freePort();
    const limitMb = Number(opts.env?.ATTACHMENT_MAX_FILE_MB ?? process.env.ATTACHMENT_MAX_FILE_MB ?? 5);
    const servers: Record<string, string> = {};
    for (let i = 1; i <= 3; i++) {
      const instance = instances[i - 1];
      servers[`INSTANCE_${i}`] = instance ? `127.0.0.1:${instance.port}` : "127.0.0.1:1 disabled";
    }
    let haproxyCfg = fill(readFileSync(path.join(DEPLOY, "haproxy.cfg"), "utf8"), {
      LOG_TARGET: "stdout format raw local0",
      LISTEN: `127.0.0.1:${haproxyPort}`,
      STATS_LISTEN: `127.0.0.1:${statsPort}`,
      BODY_LIMIT_BYTES: String(limitMb * 1024 * 1024 + 256 * 1024),
      ...servers,
    });
    // More instances than the file's three example lines: one more line each, like the others.
    for (const instance of instances.slice(3)) {
      haproxyCfg = haproxyCfg.replace(
        /( {4}server cove3 [^\n]*\n)/,
        `$1    server ${instance.name} 127.0.0.1:${instance.port} check\n`,
      );
    }
    const haproxyFile = path.join(dir, "haproxy.cfg");
    writeFileSync(haproxyFile, haproxyCfg);
    const check = spawnSync(BIN.haproxy, ["-c", "-q", "-f", haproxyFile], { encoding: "utf8" });
    if (check.status !== 0) throw new Error(`haproxy.cfg is not valid:\n${check.stderr}${check.stdout}`);
    const haproxy = start("haproxy", BIN.haproxy, ["-db", "-f", haproxyFile], { log: path.join(dir, "haproxy.log") });
    processes.push(haproxy);
    stops.push(() => stopProcess(haproxy));
    const statsUrl = `http://127.0.0.1:${statsPort}/`;

    const serverStatus = async (instance: Instance) => {
      const res = await fetch(`${statsUrl};csv`, { signal: AbortSignal.timeout(2000) });
      const rows = (await res.text()).split("\n").map((line) => line.split(","));
      const header = (rows[0] ?? []).map((h) => h.replace(/^# /, ""));
      const status = header.indexOf("status");
      const row = rows.find((r) => r[0] === "cove" && r[1] === instance.name);
      return row?.[status] ?? "missing";
    };
    const waitForStatus = (instance: Instance, status: "UP" | "DOWN", timeoutMs = 30_000) =>
      waitFor(
        `HAProxy seeing ${instance.name} ${status}`,
        async () => (await serverStatus(instance)).startsWith(status),
        timeoutMs,
      );
    for (const instance of instances) await waitForStatus(instance, "UP");

    // Prometheus, from deploy/prometheus.yml.
    const promPort = await freePort();
    const promDir = path.join(dir, "prometheus");
    mkdirSync(promDir);
    const tokenFile = path.join(promDir, "metrics-token");
    writeFileSync(tokenFile, metricsToken, { mode: 0o600 });
    const promFile = path.join(promDir, "prometheus.yml");
    writeFileSync(
      promFile,
      fill(readFileSync(path.join(DEPLOY, "prometheus.yml"), "utf8"), {
        SCRAPE_INTERVAL: "2s",
        METRICS_TOKEN_FILE: tokenFile,
        COVE_TARGETS: instances.map((i) => `"127.0.0.1:${i.port}"`).join(", "),
      }),
    );
    const prometheus = start(
      "prometheus",
      BIN.prometheus,
      [
        `--config.file=${promFile}`,
        `--storage.tsdb.path=${path.join(promDir, "data")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      { log: path.join(dir, "prometheus.log") },
    );
    processes.push(prometheus);
    stops.push(() => stopProcess(prometheus));
    const prometheusUrl = `http://127.0.0.1:${promPort}`;
    await waitFor("Prometheus", () => answers(`${prometheusUrl}/-/ready`));

    return {
      dir,
      url,
      statsUrl,
      prometheusUrl,
      database: { name: dbName, directUrl: directUrl.toString(), pooledUrl: pooledUrl.toString() },
      metricsToken,
      instances,
      startInstance: (instance) => startInstance(instance),
      stopInstance: async (instance, signal = "SIGTERM") => {
        const running = instance.running;
        if (!running) return "not running";
        running.child.kill(signal);
        return running.exited;
      },
      serverStatus,
      waitForStatus,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
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
