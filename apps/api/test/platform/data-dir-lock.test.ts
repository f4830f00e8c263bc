import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/platform/data-dir-lock.ts";
import { holdDataDirLock } from "../support/cove-process.ts";

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
    const dir = path.join(freshDir(), "nested", "data");
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
    const dir = freshDir();
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
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    const other = liveProcess();
    // As Cove wrote it before the crash: the same pid, another start time.
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime: "1", bootId: null, instance: "gone" }));
    const release = lockDataDir(dir);
    expect(owner(lockFile).pid).toBe(process.pid);
    release();
    // A lock file of an older Cove holds the pid alone: a live program that is not Node.js cannot be Cove.
    writeFileSync(lockFile, String(other.pid));
    const again = lockDataDir(dir);
    expect(owner(lockFile).pid).toBe(process.pid);
    again();
  });

  it("takes over a lock written before the machine last booted", () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    const other = liveProcess();
    const startTime = readFileSync(`/proc/${other.pid}/stat`, "utf8").split(") ")[1]?.split(" ")[19];
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime, bootId: "another-boot", instance: "old" }));
    const release = lockDataDir(dir);
    expect(owner(lockFile).pid).toBe(process.pid);
    release();
  });

  it("stops and says what to do when the running process it names cannot be told apart from Cove", () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
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
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    writeFileSync(lockFile, String(await deadPid()));
    const release = lockDataDir(dir);
    expect(owner(lockFile).pid).toBe(process.pid);
    release();
  });

  it("takes over a lock file that holds no pid", () => {
    const dir = freshDir();
    const lockFile = path.join(dir, "cove.lock");
    writeFileSync(lockFile, "");
    const release = lockDataDir(dir);
    expect(owner(lockFile).pid).toBe(process.pid);
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
