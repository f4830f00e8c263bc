import { AVATAR_MAX_BYTES } from "@cove/contract/constants.ts";
import { checkPicture } from "../../platform/images.ts";

/**
 * Checks a profile picture sent as a data URL on its decoded bytes (type and size), and answers it re-encoded, so what
 * is stored is exactly those bytes. The contract has already checked the shape of the text.
 */
export function checkAvatar(dataUrl: string): string {
  return checkPicture(dataUrl, { noun: "picture", field: "avatarUrl", maxBytes: AVATAR_MAX_BYTES }).dataUrl;
}
