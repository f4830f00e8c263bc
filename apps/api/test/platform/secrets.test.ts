import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.ts";
import { createSecrets, keyFromDataDir, parseSecretsKey, SecretUnreadable } from "../../src/platform/secrets.ts";

/** Mailbox passwords at rest: AES-256-GCM under SECRETS_KEY, or a key file made once in DATA_DIR. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("sealed secrets", () => {
  const key = randomBytes(32);
  const secrets = createSecrets(key);

  it("open to what was sealed, and never show it", () => {
    const sealed = secrets.seal("hunter2 ✓ pässwörd", "mailbox-1");
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain("hunter2");
    expect(secrets.seal("hunter2", "mailbox-1")).not.toBe(secrets.seal("hunter2", "mailbox-1"));
    expect(secrets.open(sealed, "mailbox-1")).toBe("hunter2 ✓ pässwörd");
  });

  it("do not open for another owner, another key, or after tampering", () => {
    const sealed = secrets.seal("hunter2", "mailbox-1");
    expect(() => secrets.open(sealed, "mailbox-2")).toThrow(SecretUnreadable);
    expect(() => createSecrets(randomBytes(32)).open(sealed, "mailbox-1")).toThrow(/another key/);
    const parts = sealed.split(":");
    const body = Buffer.from(parts[4] ?? "", "base64");
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString("base64");
    expect(() => secrets.open(parts.join(":"), "mailbox-1")).toThrow(SecretUnreadable);
    expect(() => secrets.open("plain text", "mailbox-1")).toThrow(SecretUnreadable);
  });
});

describe("the key", () => {
  it("is made once in DATA_DIR, readable by its owner only, and kept", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cove-secrets-"));
    dirs.push(dir);
    const first = keyFromDataDir(dir);
    const file = path.join(dir, "secrets.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keyFromDataDir(dir).equals(first)).toBe(true);
    expect(parseSecretsKey(readFileSync(file, "utf8"))?.equals(first)).toBe(true);
    writeFileSync(file, "not a key");
    expect(() => keyFromDataDir(dir)).toThrow(/does not hold a secrets key/);
  });

  it("comes from SECRETS_KEY when set, and a bad one stops the start with a message naming it", () => {
    const hex = randomBytes(32).toString("hex");
    expect(loadConfig({ SECRETS_KEY: hex }).secretsKey?.toString("hex")).toBe(hex);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(() => loadConfig({ SECRETS_KEY: "short" })).toThrow(
      "SECRETS_KEY: must be 32 random bytes as 64 hex digits (openssl rand -hex 32)",
    );
    expect(loadConfig({ IMAP_ALLOW_PRIVATE_HOSTS: "true" }).imapAllowPrivateHosts).toBe(true);
    expect(loadConfig({}).imapAllowPrivateHosts).toBe(false);
  });
});
