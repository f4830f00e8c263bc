import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/platform/data-dir-lock.ts";
import { holdDataDirLock } from "../support/cove-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const children: ChildProcess[] = [];
const temp = tempDirs("cove-lock-");

/** A fresh data directory and the path of its lock file, which does not exist yet. */
function freshLock(): { dir: string; lockFile: string } {
  const dir = temp.fresh();
  return { dir, lockFile: path.join(dir, "cove.lock") };
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  temp.removeAll();
});

/** A process that is alive for the length of the test: another program, or a Node.js process that is not Cove. */
function liveProcess(command = "sleep", args = ["30"]): ChildProcess {
  const child = spawn(command, args, { stdio: "ignore" });
  children.push(child);
  return child;
}

/** Another Cove process holding the lock of dir (killed after the file's tests). */
async function coveHolding(dir: string): Promise<ChildProcess> {
  const child = await holdDataDirLock(dir);
  children.push(child);
  return child;
}

const owner = (lockFile: string) => JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number; startTime: string };

/** Locks dir, expects its lock file to name this process now, and releases it. */
function expectTakesOver(dir: string, lockFile: string): void {
  const release = lockDataDir(dir);
  expect(owner(lockFile).pid).toBe(process.pid);
  release();
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
  it("creates the directory and a lock file naming this process: its pid and when it started", () => {
    const dir = path.join(temp.fresh(), "nested", "data");
    const release = lockDataDir(dir);
    try {
      const held = owner(path.join(dir, "cove.lock"));
      expect(held.pid).toBe(process.pid);
      expect(held.startTime).toMatch(/^\d+$/);
    } finally {
      release();
    }
  });

  it("refuses a directory another Cove process holds, naming the directory and the process", async () => {
    const dir = temp.fresh();
    const other = await coveHolding(dir);
    const lockFile = path.join(dir, "cove.lock");
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        `Another Cove process (pid ${other.pid}) is already using the data directory ${dir}`,
      );
      // The other process keeps its lock.
      expect(owner(lockFile).pid).toBe(other.pid);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock whose pid now belongs to another program (a crash, then the pid reused)", () => {
    const { dir, lockFile } = freshLock();
    const other = liveProcess();
    // As Cove wrote it before the crash: the same pid, another start time.
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime: "1", bootId: null, instance: "gone" }));
    expectTakesOver(dir, lockFile);
    // A lock file of an older Cove holds the pid alone: a live program that is not Node.js cannot be Cove.
    writeFileSync(lockFile, String(other.pid));
    expectTakesOver(dir, lockFile);
  });

  it("takes over a lock written before the machine last booted", () => {
    const { dir, lockFile } = freshLock();
    const other = liveProcess();
    const startTime = readFileSync(`/proc/${other.pid}/stat`, "utf8").split(") ")[1]?.split(" ")[19];
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime, bootId: "another-boot", instance: "old" }));
    expectTakesOver(dir, lockFile);
  });

  it("stops and says what to do when the running process it names cannot be told apart from Cove", () => {
    const { dir, lockFile } = freshLock();
    const node = liveProcess(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    writeFileSync(lockFile, String(node.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(
      `The data directory ${dir} is locked by process ${node.pid}, which is still running, and Cove cannot tell whether it is another Cove process.`,
    );
    expect(() => lockDataDir(dir)).toThrow(`delete ${lockFile} and start again`);
    expect(readFileSync(lockFile, "utf8")).toBe(String(node.pid));
  });

  it("takes over a lock left by a process that has exited", async () => {
    const { dir, lockFile } = freshLock();
    writeFileSync(lockFile, String(await deadPid()));
    expectTakesOver(dir, lockFile);
  });

  it("takes over a lock file that holds no pid", () => {
    const { dir, lockFile } = freshLock();
    writeFileSync(lockFile, "");
    expectTakesOver(dir, lockFile);
  });

  it("release removes the lock file, so the next process can start", () => {
    const { dir, lockFile } = freshLock();
    const release = lockDataDir(dir);
    expect(existsSync(lockFile)).toBe(true);
    release();
    expect(existsSync(lockFile)).toBe(false);
    const again = lockDataDir(dir);
    expect(existsSync(lockFile)).toBe(true);
    again();
  });
});
