/**
 * What the realtime and chat benches share: reading their numeric settings, a database's URL beside the admin one, and
 * the real app started in a process of its own (bench/realtime-server.ts) on that database.
 */
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RealtimeServerMessage } from "./realtime-server.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

/** A positive number from the environment variable name, else fallback. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** The URL of database name on the server of adminUrl. */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface Instance {
  child: ChildProcess;
  port: number;
  memory(): Promise<{ rss: number; heapUsed: number; sockets: number }>;
  stop(): Promise<void>;
}

/** Starts the app on the database at url, in its own process; resolves once it listens. */
export function startInstance(url: string): Promise<Instance> {
  const child = fork(path.join(here, "realtime-server.ts"), [], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, BENCH_DATABASE_URL: url, LOG_LEVEL: "error" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m: RealtimeServerMessage) => {
      if (m.type !== "ready") return reject(new Error(m.type === "failed" ? m.error : "unexpected message"));
      resolve({
        child,
        port: m.port,
        memory: () =>
          new Promise((res) => {
            child.once("message", (mm: RealtimeServerMessage) => {
              if (mm.type === "memory") res(mm);
            });
            child.send("memory");
          }),
        stop: () =>
          new Promise((res) => {
            child.once("exit", () => res());
            child.send("stop");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`instance exited with ${code}`)));
  });
}
