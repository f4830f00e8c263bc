import { createHash } from "node:crypto";
import { LOGO_MAX_BYTES } from "@cove/contract/settings.ts";
import { checkPicture, pictureBytes } from "../../platform/images.ts";

/** Checks a logo sent as a data URL on its decoded bytes; answers it re-encoded and a version for its URL. */
export function checkLogo(dataUrl: string): { logo: string; version: string } {
  const checked = checkPicture(dataUrl, { noun: "logo", field: "logo", maxBytes: LOGO_MAX_BYTES });
  return { logo: checked.dataUrl, version: createHash("sha256").update(checked.bytes).digest("hex").slice(0, 12) };
}

/** A stored logo's bytes and type, to serve it. */
export const logoBytes = pictureBytes;
