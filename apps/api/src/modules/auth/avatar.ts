import { AVATAR_MAX_BYTES } from "@cove/contract/constants.ts";
import { AppError } from "../../platform/errors.ts";

/** The first bytes of each accepted image type: the declared type must match what the bytes are. */
const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/webp": (b) =>
    b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
};

const invalid = (message: string) => new AppError("VALIDATION_ERROR", message, [{ path: "avatarUrl", message }]);

/**
 * Checks a profile picture sent as a data URL on its decoded bytes (type and size), and answers it re-encoded, so what
 * is stored is exactly those bytes. The contract has already checked the shape of the text.
 */
export function checkAvatar(dataUrl: string): string {
  const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(dataUrl);
  const type = match?.[1] ?? "";
  const isType = SIGNATURES[type];
  if (!match || !isType) throw invalid("The picture must be a PNG, JPEG or WebP image");
  const bytes = Buffer.from(match[2] ?? "", "base64");
  if (bytes.length === 0 || bytes.length > AVATAR_MAX_BYTES) {
    throw invalid(`The picture must be at most ${AVATAR_MAX_BYTES / 1024} KB`);
  }
  if (!isType(bytes)) throw invalid("The picture's content is not the image type it claims to be");
  return `data:${type};base64,${bytes.toString("base64")}`;
}
