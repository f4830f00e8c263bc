import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A PgBouncer of the test's own in front of a PostgreSQL database, as docs/deploy.md runs it. */
export interface PgBouncer {
  /** The database's URL through the pooler (the app's DATABASE_URL). */
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts Debian's PgBouncer in transaction pooling mode in front of directUrl's server, with poolSize server
 * connections per database (fewer than the app's pool: transactions from every client take turns on them).
 */
export async function startPgBouncer(directUrl: string, poolSize = 5): Promise<PgBouncer> {
  const direct = new URL(directUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "cove-pgbouncer-"));
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${direct.hostname} port=${direct.port || 5432} user=${decodeURIComponent(direct.username || "postgres")}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 200",
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root; -u makes it switch to PostgreSQL's user.
  const asRoot = process.getuid?.() === 0;
  const bouncer = spawn("pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), ini], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  bouncer.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
  });
  const exited = new Promise<void>((resolve) => bouncer.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/listening on 127\.0\.0\.1:\d+/.test(log)) {
          clearInterval(timer);
          resolve();
        }
      }, 50);
      bouncer.once("exit", (code) => {
        clearInterval(timer);
        reject(new Error(`pgbouncer exited (${code}):\n${log}`));
      });
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const pooled = new URL(directUrl);
  pooled.host = `127.0.0.1:${port}`;
  return {
    url: pooled.toString(),
    async stop() {
      if (bouncer.exitCode === null && bouncer.signalCode === null) {
        bouncer.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
