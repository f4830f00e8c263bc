import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Fresh temporary directories named `<prefix>…` under the system's: `fresh()` makes one, `removeAll()` (from the
 * file's afterAll, once whatever uses them has stopped) deletes every one made so far.
 */
export function tempDirs(prefix: string) {
  const dirs: string[] = [];
  return {
    fresh(): string {
      const dir = mkdtempSync(path.join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
