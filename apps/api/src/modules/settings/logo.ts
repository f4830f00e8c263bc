import { createHash } from "node:crypto";
import { LOGO_MAX_BYTES } from "@cove/contract/settings.ts";
import { AppError } from "../../platform/errors.ts";

/** The first bytes of each accepted image type (SVG is not accepted: it can carry script). */
const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/webp": (b) =>
    b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
};

const invalid = (message: string) => new AppError("VALIDATION_ERROR", message, [{ path: "logo", message }]);

/** Checks a logo sent as a data URL on its decoded bytes; answers it re-encoded and a version for its URL. */
export function checkLogo(dataUrl: string): { logo: string; version: string } {
  const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(dataUrl);
  const type = match?.[1] ?? "";
  const isType = SIGNATURES[type];
  if (!match || !isType) throw invalid("The logo must be a PNG, JPEG or WebP image");
  const bytes = Buffer.from(match[2] ?? "", "base64");
  if (bytes.length === 0 || bytes.length > LOGO_MAX_BYTES) {
    throw invalid(`The logo must be at most ${LOGO_MAX_BYTES / 1024} KB`);
  }
  if (!isType(bytes)) throw invalid("The logo's content is not the image type it claims to be");
  return {
    logo: `data:${type};base64,${bytes.toString("base64")}`,
    version: createHash("sha256").update(bytes).digest("hex").slice(0, 12),
  };
}

/** A stored logo's bytes and type, to serve it. */
export function logoBytes(dataUrl: string): { type: string; bytes: Buffer } | null {
  const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(dataUrl);
  if (!match?.[1] || !SIGNATURES[match[1]]) return null;
  return { type: match[1], bytes: Buffer.from(match[2] ?? "", "base64") };
}
