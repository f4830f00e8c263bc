import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {}

/** What the lock file holds: enough to tell, after a crash, whether its pid is still this Cove process. */
interface LockOwner {
  pid: number;
  /** The process's start time as the kernel counts it (/proc/<pid>/stat, field 22); null where there is no /proc. */
  startTime: string | null;
  /** The machine's boot (/proc/sys/kernel/random/boot_id): start times count from boot, so they compare within one. */
  bootId: string | null;
  /** A random id of this start, so two lock files never look alike. */
  instance: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const readText = (file: string): string | null => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

/** A process's start time in clock ticks since boot; the fields after the command name, which may hold spaces. */
function startTimeOf(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? null;
}

const bootId = () => readText("/proc/sys/kernel/random/boot_id")?.trim() || null;

/** The lock file's owner: this format, or a bare pid (written by Cove before it recorded start times). */
function parseOwner(text: string): LockOwner | number | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (parsed && typeof parsed === "object" && Number.isInteger(parsed.pid)) {
      return {
        pid: parsed.pid as number,
        startTime: parsed.startTime ?? null,
        bootId: parsed.bootId ?? null,
        instance: String(parsed.instance ?? ""),
      };
    }
  } catch {
    // Not JSON: an older lock file holds the pid alone.
  }
  const pid = Number.parseInt(text.trim(), 10);
  return /^\d+$/.test(text.trim()) && Number.isInteger(pid) ? pid : null;
}

/**
 * Whether the process a lock names is the Cove process that wrote it: "yes", "no" (it has exited, or its pid now
 * belongs to another program: a process started at another time, or before another boot), or "unsure" (it is running
 * and this system gives no way to tell).
 */
function ownerIsRunning(owner: LockOwner | number): "yes" | "no" | "unsure" {
  const pid = typeof owner === "number" ? owner : owner.pid;
  if (pid === process.pid || !isAlive(pid)) return "no";
  if (typeof owner === "number") {
    // An older lock names only a pid. A live process that is not Node.js at all cannot be Cove.
    const command = readText(`/proc/${pid}/cmdline`);
    if (command === null) return "unsure";
    return path.basename(command.split("\0")[0] ?? "").startsWith("node") ? "unsure" : "no";
  }
  const now = startTimeOf(pid);
  if (now === null || owner.startTime === null) return "unsure";
  if (owner.bootId && bootId() && owner.bootId !== bootId()) return "no";
  return now === owner.startTime ? "yes" : "no";
}

/**
 * The embedded database is a single-writer store: two processes on one DATA_DIR corrupt it. A lock file naming the
 * owner (its pid, start time and boot) keeps a second process out. A lock left behind by a crash is taken over: its
 * process has exited, or its pid now belongs to another program (after a restart the pid is often reused). When the
 * named process is running and cannot be told apart from Cove, start-up stops and says what to do.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "cove.lock");
  const me: LockOwner = {
    pid: process.pid,
    startTime: startTimeOf(process.pid),
    bootId: bootId(),
    instance: randomBytes(8).toString("hex"),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return () => {
        // Only our own lock: never one a later process took over.
        const current = readText(file);
        if (current !== null && (parseOwner(current) as LockOwner | null)?.instance === me.instance) {
          rmSync(file, { force: true });
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = parseOwner(readText(file) ?? "");
      const running = owner === null ? "no" : ownerIsRunning(owner);
      const pid = typeof owner === "number" ? owner : owner?.pid;
      if (running === "yes") {
        throw new DataDirLockedError(
          `Another Cove process (pid ${pid}) is already using the data directory ${dataDir}. ` +
            "Stop it first, or start this one with a different DATA_DIR.",
        );
      }
      if (running === "unsure") {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is locked by process ${pid}, which is still running, and Cove cannot tell ` +
            "whether it is another Cove process. If it is, stop it first or start this one with a different DATA_DIR. " +
            `If it is not (Cove stopped without removing its lock), delete ${file} and start again.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(
    `Could not lock the data directory ${dataDir}: another process keeps creating ${file}. ` +
      "Make sure no other Cove process uses this directory, then start again.",
  );
}
