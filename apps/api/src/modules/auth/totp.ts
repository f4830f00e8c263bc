import { createHash, randomInt } from "node:crypto";
import { generateSecret, generateURI, NobleCryptoPlugin, ScureBase32Plugin, TOTP as Totp } from "otplib";
import QRCode from "qrcode";

/**
 * TOTP as RFC 6238 and every authenticator app know it: SHA-1, 6 digits, a new code every 30 seconds. A code is
 * taken in the step before and after the current one too (a phone's clock a little off), and only for a step later
 * than the last one accepted (the caller keeps it: two-factor.queries.ts).
 */
const TOTP = { algorithm: "sha1", digits: 6, period: 30 } as const;
const ISSUER = "Cove";
const totp = new Totp({ ...TOTP, crypto: new NobleCryptoPlugin(), base32: new ScureBase32Plugin() });

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), as base32. */
export const newTotpSecret = () => generateSecret({ length: 20 });

/** The otpauth:// address an authenticator app reads from the QR code: "Cove: ada@example.com". */
export const otpauthUrl = (secret: string, account: string) =>
  generateURI({ issuer: ISSUER, label: account, secret, ...TOTP });

/** The address as a QR code, an SVG data URL: drawn here, so the web app needs no QR library. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

/** The time step a code belongs to when it is right for the secret and later than afterStep; else null. */
export async function matchTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  try {
    const result = await totp.verify(code, {
      secret,
      epochTolerance: TOTP.period,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** Letters and digits that cannot be mistaken for one another (no i, l, o, 0, 1). */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A recovery code as shown: three groups of four (about 59 random bits). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((g) => g.join("")).join("-");
}

/** What is stored of a recovery code: a hash bound to its member, of the code without dashes, lower case. */
export const recoveryCodeHash = (userId: string, code: string) =>
  createHash("sha256")
    .update(`${userId}:${code.replace(/[\s-]/g, "").toLowerCase()}`)
    .digest("hex");
