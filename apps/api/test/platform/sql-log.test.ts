import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

let folder: string | null = null;

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = null;
});

/** The log's records as [mark, statement] pairs (the origin after the mark is whatever the stack showed). */
function records(dir: string): [string, string][] {
  const text = readdirSync(dir)
    .map((name) => readFileSync(path.join(dir, name), "utf8"))
    .join("");
  return text
    .split("\n\u0000\n")
    .filter(Boolean)
    .map((record) => {
      const newline = record.indexOf("\n");
      return [record.slice(0, newline).split(" ")[0] ?? "", record.slice(newline + 1)];
    });
}

describe("the statement log of the query rule (platform/sql-log.ts)", () => {
  it("writes each statement once per kind, marked confined only inside a confined transaction's work", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "sql-log-"));
    vi.stubEnv("COVE_SQL_LOG", folder);
    const { confined, sqlLogger, withoutTheRule } = await import("../../src/platform/sql-log.ts");
    const logger = sqlLogger();
    if (!logger) throw new Error("no logger with COVE_SQL_LOG set");

    logger.logQuery("select 1", []);
    logger.logQuery("select 1", []);
    await confined(async () => {
      await Promise.resolve();
      logger.logQuery("select id from tickets where organization_id = $1", []);
      // Sent by the owner first, then by a confined transaction: written again, so that the rule judges it.
      logger.logQuery("select 1", []);
      logger.logQuery("select 1", []);
      await withoutTheRule(async () => logger.logQuery("select email from users", []));
    });

    expect(records(folder)).toEqual([
      ["owner", "select 1"],
      ["confined", "select id from tickets where organization_id = $1"],
      ["confined", "select 1"],
      ["owner", "select email from users"],
    ]);
  });

  it("writes nothing and marks nothing without COVE_SQL_LOG", async () => {
    vi.stubEnv("COVE_SQL_LOG", "");
    const { confined, sqlLogger } = await import("../../src/platform/sql-log.ts");
    expect(sqlLogger()).toBeUndefined();
    await expect(confined(async () => 7)).resolves.toBe(7);
  });
});
