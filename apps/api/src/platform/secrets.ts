import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Secrets Cove must use again later (a mailbox's password), kept in the database encrypted with AES-256-GCM under a
 * key from configuration (SECRETS_KEY), never in clear. Each value is bound to what it belongs to (the associated
 * data, e.g. the mailbox's id), so a ciphertext copied into another row does not decrypt. See
 * docs/decisions/2026-11-25-mailbox-import.md.
 */
export interface Secrets {
  seal(plain: string, boundTo: string): string;
  /** Throws SecretKeyMismatch when the value was sealed under another key, and on any tampering. */
  open(sealed: string, boundTo: string): string;
}

export class SecretUnreadable extends Error {}

const VERSION = "v1";

/** A short, non-secret name of a key: a sealed value says which key sealed it, so a changed key is told apart. */
const keyName = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

export function createSecrets(key: Buffer): Secrets {
  if (key.length !== 32) throw new Error("The secrets key must be 32 bytes");
  const name = keyName(key);
  return {
    seal(plain, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(boundTo, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, name, iv.toString("base64"), tag.toString("base64"), body.toString("base64")].join(":");
    },
    open(sealed, boundTo) {
      const [version, sealedBy, iv, tag, body] = sealed.split(":");
      if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretUnreadable("not a sealed value");
      if (sealedBy !== name) {
        throw new SecretUnreadable("sealed under another key (SECRETS_KEY changed since it was saved)");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
        decipher.setAAD(Buffer.from(boundTo, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretUnreadable("the sealed value does not match its key or its owner");
      }
    },
  };
}

/** SECRETS_KEY as configured: 64 hex digits or the base64 of 32 bytes. Null when it is neither. */
export function parseSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, "base64");
    return key.length === 32 ? key : null;
  }
  return null;
}

export const SECRETS_KEY_FILE = "secrets.key";

/**
 * The key when SECRETS_KEY is not set: a file in DATA_DIR made on first use (readable by its owner only), so a local
 * run works out of the box and keeps its mailboxes across restarts. Instances sharing one PostgreSQL must share one
 * key: set SECRETS_KEY there (main.ts warns when it is missing).
 */
export function keyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  if (existsSync(file)) {
    const key = parseSecretsKey(readFileSync(file, "utf8"));
    if (!key) throw new Error(`${file} does not hold a secrets key (64 hex digits): restore it or remove it`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // wx: never overwrite a key another start wrote meanwhile (that one sealed the stored passwords).
  try {
    writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return keyFromDataDir(dataDir);
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}
