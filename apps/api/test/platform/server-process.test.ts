import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { AuthAnswer, MeAnswer } from "@cove/contract/auth.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_LOGIN } from "../../src/db/seed.ts";
import { registration } from "../helpers.ts";
import { runnerEnvWithoutCove, spawnCove } from "../support/cove-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

/**
 * The real start-up, as `npm start` runs it (from source instead of the bundle): a child process with its own
 * environment, talking real HTTP. It always runs on the embedded database, whatever TEST_DATABASE_URL says.
 */

const STEP = 60_000;
/** Two fresh embedded databases are created at once (PostgreSQL's initdb in WebAssembly): slow on a busy machine. */
const STARTUP = 120_000;

interface Server {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  stdout(): string;
  /** Resolves with the match once stdout matches re; rejects if the process exits first or time runs out. */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const servers: Server[] = [];
const dataDirs = tempDirs("cove-server-");
const freshDataDir = dataDirs.fresh;

function start(dataDir: string, extraEnv: Record<string, string> = {}): Server {
  const env = runnerEnvWithoutCove();
  Object.assign(env, { DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn" }, extraEnv);
  const child = spawnCove(env);
  let out = "";
  let all = "";
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    all += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    all += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const server: Server = {
    child,
    output: () => all,
    stdout: () => out,
    exited,
    waitFor: (re, ms = 110_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(re);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${re} in:\n${all}`));
        }, ms);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(({ code, signal }) => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`the server exited (${code ?? signal}) before printing ${re}:\n${all}`));
        });
        check();
      }),
  };
  servers.push(server);
  return server;
}

const RUNNING = /Cove is running at (http:\/\/localhost:(\d+))/;
const DEMO_LINE = /Demo sign-in( \(just created\))?: (\S+) \/ (\S+)/;
const DOCS_LINE = /API documentation: \/api\/docs/;

async function post(base: string, url: string, body: unknown) {
  const res = await fetch(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  }
  dataDirs.removeAll();
});

describe("the server process", () => {
  const dataDir = freshDataDir();
  const lockFile = path.join(dataDir, "cove.lock");
  let first: Server;
  let base = "";
  let demo = { email: "", password: "" };
  const owner = registration();

  // A second installation with SEED_DEMO=false starts alongside, so the two start-ups overlap.
  const noDemoDir = freshDataDir();
  let noDemo: Server;
  // Started on the same DATA_DIR as soon as the first holds its lock, while the first is still starting.
  let second: Server;

  beforeAll(async () => {
    first = start(dataDir);
    noDemo = start(noDemoDir, { SEED_DEMO: "false" });
    const deadline = Date.now() + 30_000;
    while (!existsSync(lockFile) && Date.now() < deadline && first.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    second = start(dataDir);
    const running = await first.waitFor(RUNNING);
    base = running[1] ?? "";
    const demoLine = await first.waitFor(DEMO_LINE);
    demo = { email: demoLine[2] ?? "", password: demoLine[3] ?? "" };
  }, STARTUP);

  it(
    "prints where it runs and a demo sign-in that was just created",
    async () => {
      expect(Number(base.split(":").at(-1))).toBeGreaterThan(0);
      expect(first.stdout()).toContain(`embedded database in ${dataDir}`);
      expect(first.stdout()).toMatch(/Demo sign-in \(just created\): /);
      expect(demo.email).toBe(DEMO_LOGIN.email);
      expect(existsSync(lockFile)).toBe(true);
    },
    STEP,
  );

  it(
    "(a) answers the health check over HTTP",
    async () => {
      const res = await fetch(`${base}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", database: "embedded" });
    },
    STEP,
  );

  it(
    "(b) lets the printed demo sign-in sign in",
    async () => {
      const res = await post(base, "/api/auth/login", demo);
      expect(res.status).toBe(200);
      const { token, user } = res.body as AuthAnswer;
      expect(user.email).toBe(demo.email);
      expect(user.role).toBe("admin");
      const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as MeAnswer).user.organizationName).toBe("Acme Outdoor Co.");
    },
    STEP,
  );

  it(
    "(c) registers a new organization over HTTP",
    async () => {
      const res = await post(base, "/api/auth/register", owner);
      expect(res.status).toBe(201);
      expect((res.body as AuthAnswer).user.organizationName).toBe(owner.organizationName);
    },
    STEP,
  );

  it(
    "(d) refuses a second process on the same data directory, and the first keeps running",
    async () => {
      const stillRunning = new Promise<"still running">((resolve) =>
        setTimeout(() => resolve("still running"), 30_000).unref(),
      );
      const result = await Promise.race([second.exited, stillRunning]);
      expect(result).toEqual({ code: 1, signal: null });
      expect(second.output()).toContain("already using the data directory");
      expect(second.output()).toContain(dataDir);
      expect(second.stdout()).not.toMatch(RUNNING);
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(existsSync(lockFile)).toBe(true);
    },
    STEP,
  );

  it(
    "(e) stops cleanly on SIGTERM and releases the data directory",
    async () => {
      first.child.kill("SIGTERM");
      const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 15_000).unref());
      const result = await Promise.race([first.exited, timeout]);
      expect(result).toEqual({ code: 0, signal: null });
      expect(existsSync(lockFile)).toBe(false);
      await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    },
    STEP,
  );

  it(
    "(f) keeps its data across a restart and does not seed the demo again",
    async () => {
      const again = start(dataDir);
      const running = await again.waitFor(RUNNING);
      const demoLine = await again.waitFor(DEMO_LINE);
      expect(demoLine[1]).toBeUndefined();
      expect(again.stdout()).not.toContain("just created");
      const againBase = running[1] ?? "";
      const res = await post(againBase, "/api/auth/login", { email: owner.email, password: owner.password });
      expect(res.status).toBe(200);
      expect((res.body as AuthAnswer).user.organizationName).toBe(owner.organizationName);
      const demoLogin = await post(againBase, "/api/auth/login", demo);
      expect(demoLogin.status).toBe(200);
      // Asked at once, the demo's assistant reads the question with its sentence encoder: the thread started with
      // the server (its model loaded after its backend, or a busy machine made the load fail for good).
      const asked = await post(againBase, "/api/chat/ai-response", { message: "Do you deliver to Germany?" });
      expect(asked.status).toBe(200);
      expect(again.output()).not.toMatch(/Sentence encoder|Sentence vectors|sentence vectors not/i);
      again.child.kill("SIGTERM");
      expect(await again.exited).toEqual({ code: 0, signal: null });
    },
    STEP,
  );

  it(
    "(g) with SEED_DEMO=false has no demo organization and prints no demo sign-in",
    async () => {
      const running = await noDemo.waitFor(RUNNING);
      await noDemo.waitFor(DOCS_LINE);
      expect(noDemo.stdout()).not.toContain("Demo sign-in");
      const res = await post(running[1] ?? "", "/api/auth/login", DEMO_LOGIN);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "INVALID_CREDENTIALS" });
      noDemo.child.kill("SIGTERM");
      expect(await noDemo.exited).toEqual({ code: 0, signal: null });
    },
    STEP,
  );
});

describe("a production start-up", () => {
  it(
    "refuses to start with PAYMENT_PROVIDER unset, naming the setting",
    async () => {
      const server = start(freshDataDir(), { NODE_ENV: "production" });
      expect(await server.exited).toEqual({ code: 1, signal: null });
      expect(server.output()).toContain("PAYMENT_PROVIDER: required when NODE_ENV is production");
      expect(server.stdout()).not.toMatch(RUNNING);
    },
    STEP,
  );
});
