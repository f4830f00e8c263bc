import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AuthAnswer } from "@cove/contract/auth.ts";
import { afterAll, describe, expect, it } from "vitest";
import { registration } from "../helpers.ts";
import { runnerEnvWithoutCove, spawnCove } from "../support/cove-process.ts";
import { connectRealtime } from "../support/realtime-client.ts";

/**
 * Draining (main.ts, docs/deploy.md): the real server process gets SIGTERM while a request is in flight. It answers
 * /api/ready with 503 at once and keeps serving for DRAIN_DELAY_MS, then stops accepting connections, finishes the
 * request, closes its sockets with 1001 and exits 0. On the embedded database, whatever TEST_DATABASE_URL says.
 */

const DRAIN_DELAY_MS = 2_000;

const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function startServer() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cove-drain-"));
  dirs.push(dataDir);
  const env = runnerEnvWithoutCove();
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: "0",
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    SHUTDOWN_GRACE_MS: "20000",
  });
  const child = spawnCove(env);
  children.push(child);
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const port = new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Cove is running at http:\/\/localhost:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the server exited before it was running:\n${out}`));
    });
  });
  return { child, exited, port, output: () => out };
}

/** A request whose body is still arriving: its headers and the first half now, the rest when the test says. */
function slowLogin(port: number) {
  const body = JSON.stringify({ email: "nobody@example.com", password: "not the password" });
  const half = Math.floor(body.length / 2);
  const socket: Socket = connect(port, "127.0.0.1");
  let answer = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    answer += chunk;
  });
  const ended = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  socket.write(
    `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  // The answer carries Connection: close (the instance is draining), so the server ends the connection after it.
  return { finish: () => socket.write(body.slice(half)), answer: () => answer, ended };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SIGTERM", () => {
  it("drains: ready 503 while still serving, then finishes the request in flight, closes sockets with 1001, exits 0", async () => {
    const server = startServer();
    const port = await server.port;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/api/ready`)).status).toBe(200);

    const registered = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(registration()),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as AuthAnswer;
    const socket = await connectRealtime(base);
    await socket.join(token, ["tickets"]);

    const inFlight = slowLogin(port);
    await sleep(200);
    const signalled = Date.now();
    server.child.kill("SIGTERM");

    // At once: not ready, and everything else still served, on new connections too.
    await expect
      .poll(async () => (await fetch(`${base}/api/ready`)).status, { timeout: 1_000, interval: 50 })
      .toBe(503);
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.headers.get("connection")).toBe("close");
    expect(await ready.json()).toEqual({ status: "not_ready", reason: "The instance is shutting down." });
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);

    // After the delay: the socket is told the server is going away (1001), and no new connection is accepted.
    const closed = await socket.closed;
    expect(closed.code).toBe(1001);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_DELAY_MS - 100);
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();

    // The request that was in flight all along still gets its whole answer.
    expect(server.child.exitCode).toBeNull();
    inFlight.finish();
    const answer = await inFlight.ended;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"INVALID_CREDENTIALS"');

    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
