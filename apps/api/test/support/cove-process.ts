import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** The repository's root, where `npm start` runs. */
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const MAIN = path.join(ROOT, "apps/api/src/main.ts");

/** Every variable Cove reads: a child started from the runner's environment gets only the values its test sets. */
const COVE_VARIABLES = [
  "NODE_ENV",
  "PORT",
  "HOST",
  "DATA_DIR",
  "DATABASE_URL",
  "DATABASE_DIRECT_URL",
  "TEST_DATABASE_URL",
  "TEST_DATABASE_DIRECT_URL",
  "PUBLIC_URL",
  "SEED_DEMO",
  "SMTP_URL",
  "MAIL_FROM",
  "TRUST_PROXY",
  "LOG_LEVEL",
  "LOG_FORMAT",
  "PAYMENT_PROVIDER",
  "METRICS_TOKEN",
  "DRAIN_DELAY_MS",
  "SHUTDOWN_GRACE_MS",
];

/** The test runner's environment without any of Cove's variables. */
export function runnerEnvWithoutCove(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of COVE_VARIABLES) delete env[name];
  return env;
}

/** The real server, as `npm start` runs it (from source instead of the bundle), in a child process with `env`. */
export function spawnCove(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", MAIN], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Another Cove process holding the lock of a data directory, as a running instance does: a child that takes it
 * (platform/data-dir-lock.ts) and waits until it is killed. Resolves once the lock is taken.
 */
export async function holdDataDirLock(dataDir: string): Promise<ChildProcess> {
  const lockModule = path.join(ROOT, "apps/api/src/platform/data-dir-lock.ts");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `import(${JSON.stringify(lockModule)}).then((m) => { m.lockDataDir(${JSON.stringify(dataDir)}); console.log("locked"); setInterval(() => {}, 1000); });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"], cwd: path.join(ROOT, "apps/api") },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the process holding the lock exited with ${code}`)));
  });
  return child;
}
