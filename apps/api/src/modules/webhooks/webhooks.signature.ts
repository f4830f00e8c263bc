import { createHmac, randomBytes } from "node:crypto";

/**
 * Cove-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, with one v1 per valid secret (two while
 * a rolled secret's old one still counts), as Stripe does. docs/webhooks.md shows a receiver checking it.
 */
export function signatureHeader(body: string, secrets: readonly string[], at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`);
  return [`t=${t}`, ...v1].join(",");
}

/** A new signing secret: whsec_ and 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

/** How long the secret before a roll keeps signing. */
export const ROLL_OVERLAP_MS = 24 * 60 * 60 * 1000;
