import { formatBytes } from "@cove/contract/attachment-limits.ts";
import type { FastifyInstance, FastifyReply } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { contentDisposition, isInlineImage } from "./attachments.store.ts";

/** What every route that takes or serves a file shares (tickets, the portal, live chat, articles). */

/**
 * A file's bytes as the request body, read up to the configured size: over it, a clear 413 that names the limit (the
 * declared length is checked first, so a large upload is refused before it is read).
 */
export function fileBody(app: FastifyInstance) {
  app.addContentTypeParser("application/octet-stream", (req, payload, done) => {
    const max = app.attachmentLimits.max_file_bytes;
    const tooLarge = () =>
      new AppError("PAYLOAD_TOO_LARGE", `The file is too large: a file can be at most ${formatBytes(max)}.`);
    if (Number(req.headers["content-length"]) > max) return done(tooLarge(), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      stop();
      payload.resume();
      done(tooLarge(), undefined);
    };
    const onEnd = () => {
      stop();
      done(null, Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      stop();
      done(err, undefined);
    };
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
  });
}

export function fileBytes(body: unknown): Buffer {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new AppError("BAD_REQUEST", "Send the file's bytes as the body (Content-Type: application/octet-stream).");
  }
  return body;
}

export function sendFile(reply: FastifyReply, file: { filename: string; contentType: string; bytes: Buffer }) {
  const inline = isInlineImage(file.contentType);
  return reply
    .header("content-type", file.contentType)
    .header("content-disposition", contentDisposition(inline ? "inline" : "attachment", file.filename))
    .header("cache-control", "private, max-age=300")
    .send(file.bytes);
}
