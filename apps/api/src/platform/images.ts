import { AppError } from "./errors.ts";

/** What a file's bytes are, from their first bytes; anything not recognised is a plain download. */
export function sniffType(bytes: Buffer): string {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf";
  if (starts(0x50, 0x4b, 0x03, 0x04)) return "application/zip";
  return "application/octet-stream";
}

/** The picture types a profile picture or a logo may be (SVG is not one: it can carry script). */
const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp"];

const DATA_URL = /^data:(image\/[a-z]+);base64,(.*)$/s;

/** A stored picture's type and bytes, or null when it is not one of the picture types. */
export function pictureBytes(dataUrl: string): { type: string; bytes: Buffer } | null {
  const match = DATA_URL.exec(dataUrl);
  if (!match?.[1] || !PICTURE_TYPES.includes(match[1])) return null;
  return { type: match[1], bytes: Buffer.from(match[2] ?? "", "base64") };
}

/**
 * Checks a picture sent as a data URL (a profile picture, a logo) on its decoded bytes: a PNG, JPEG or WebP whose
 * bytes are what its type says, of at most maxBytes. Answers it re-encoded, so what is stored is exactly those bytes.
 * Each failure is a 400 naming the field, in words about the thing ("The logo must be...").
 */
export function checkPicture(
  dataUrl: string,
  what: { noun: string; field: string; maxBytes: number },
): { dataUrl: string; bytes: Buffer } {
  const invalid = (message: string) => new AppError("VALIDATION_ERROR", message, [{ path: what.field, message }]);
  const match = DATA_URL.exec(dataUrl);
  const type = match?.[1] ?? "";
  if (!match || !PICTURE_TYPES.includes(type)) throw invalid(`The ${what.noun} must be a PNG, JPEG or WebP image`);
  const bytes = Buffer.from(match[2] ?? "", "base64");
  if (bytes.length === 0 || bytes.length > what.maxBytes) {
    throw invalid(`The ${what.noun} must be at most ${what.maxBytes / 1024} KB`);
  }
  if (sniffType(bytes) !== type) throw invalid(`The ${what.noun}'s content is not the image type it claims to be`);
  return { dataUrl: `data:${type};base64,${bytes.toString("base64")}`, bytes };
}
