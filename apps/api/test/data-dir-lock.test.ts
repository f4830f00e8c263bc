import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../src/platform/data-dir-lock.ts";

const children: ChildProcess[] = [];
const dirs: string[] = [];

function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cove-lock-"));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process that is alive for the length of the test. */
function liveProcess(): ChildProcess {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  return child;
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn("true", [], { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start a process");
  await new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return pid;
}

describe("lockDataDir", () => {
  it("creates the directory and a lock file holding this process's pid", () => {
    const dir = path.join(freshDir(), "nested", "data");
    const release = lockDataDir(dir);
    try {
      expect(readFileSync(path.join(dir, "cove.lock"), "utf8")).toBe(String(process.pid));
    } finally {
      release();
    }
  });

  it("refuses a directory locked by a live process, naming the directory", () => {
    const dir = freshDir();
    const other = liveProcess();
    const lockFile = path.join(dir, "cove.lock");
    writeFileSync(lockFile, String(other.pid));
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(dir);
      expect(() => lockDataDir(dir)).toThrow(`pid ${other.pid}`);
      // The other process keeps its lock.
      expect(readFileSync(lockFile, "utf8")).toBe(String(other.pid));
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that has exited", async () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    writeFileSync(lockFile, String(await deadPid()));
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    release();
  });

  it("takes over a lock file that holds no pid", () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    writeFileSync(lockFile, "");
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    release();
  });

  it("release removes the lock file, so the next process can start", () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    const release = lockDataDir(dir);
    expect(existsSync(lockFile)).toBe(true);
    release();
    expect(existsSync(lockFile)).toBe(false);
    const again = lockDataDir(dir);
    expect(existsSync(lockFile)).toBe(true);
    again();
  });
});
