import type { FastifyInstance } from "fastify";
import { bearer, newAddress } from "../helpers.ts";

/** A 1x1 PNG: a real image header, as the server types files by their bytes. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** The start of a Windows program: what a file named .png must not be served as. */
export const EXE = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200, 0x90)]);

/** Small limits, so tests reach them with small files: 4 KB a file, 6 KB a message, 3 files. */
export const SMALL_LIMITS = { max_file_bytes: 4096, max_message_bytes: 6144, max_files: 3 };

/**
 * Uploads one file as the API takes it (the body is the file, its name in the address), each from an address of its
 * own, as uploads are rate-limited per address: `upload(token, url, filename, bytes)`.
 */
export function uploader(app: () => FastifyInstance) {
  return (token: string | null, url: string, filename: string, bytes: Buffer) =>
    app().inject({
      method: "POST",
      url: `${url}?filename=${encodeURIComponent(filename)}`,
      headers: { ...(token ? bearer(token) : {}), "content-type": "application/octet-stream" },
      payload: bytes,
      remoteAddress: newAddress(),
    });
}
