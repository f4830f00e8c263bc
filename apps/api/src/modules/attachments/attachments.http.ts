import { randomUUID } from "node:crypto";
import {
  formatBytes,
  UPLOADS_AT_ONCE_PER_ADDRESS,
  UPLOADS_AT_ONCE_PER_ORGANIZATION,
} from "@cove/contract/attachment-limits.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sessionEnded } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import {
  dropUpload,
  isInlineImage,
  type StoredUpload,
  UPLOAD_PART_BYTES,
  writeUploadPart,
} from "./attachments.store.ts";

/** What every route that takes or serves a file shares (tickets, the portal, live chat, articles). */

/** Uploads per address and minute, on every route that takes a file (a visitor's chat file counts as a message). */
export const UPLOAD_RATE_LIMIT = { max: 60, timeWindow: "1 minute" };

const HEAD_BYTES = 16;

/** The uploads in progress on this instance, by organization and by client address. */
class UploadSlots {
  private readonly byOrg = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  /** Takes a slot for an upload, or refuses it (429) when its organization or address has too many going. */
  take(orgId: string, address: string): () => void {
    const org = this.byOrg.get(orgId) ?? 0;
    const from = this.byAddress.get(address) ?? 0;
    if (from >= UPLOADS_AT_ONCE_PER_ADDRESS || org >= UPLOADS_AT_ONCE_PER_ORGANIZATION) {
      throw new AppError(
        "RATE_LIMITED",
        from >= UPLOADS_AT_ONCE_PER_ADDRESS
          ? `Too many files are being uploaded at once: at most ${UPLOADS_AT_ONCE_PER_ADDRESS} at a time. Try again when one has finished.`
          : `Too many files are being uploaded to this organization at once. Try again in a moment.`,
      );
    }
    this.byOrg.set(orgId, org + 1);
    this.byAddress.set(address, from + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lower(this.byOrg, orgId);
      this.lower(this.byAddress, address);
    };
  }

  private lower(map: Map<string, number>, key: string) {
    const n = (map.get(key) ?? 1) - 1;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  }
}

/** One set of slots per database (so per app), shared by every plugin that takes files. */
const slotsOf = new WeakMap<object, UploadSlots>();
/** The upload a request is making: its slot, and its parts to drop if the request fails. */
const uploadOf = new WeakMap<FastifyRequest, { release: () => void; orgId: string; uploadId: string }>();

/**
 * A file's bytes as the request body, stored as they arrive (attachments.store.ts: parts of UPLOAD_PART_BYTES, each
 * a short write of its own, the stream paused meanwhile) up to the configured size: over it, a clear 413 that names
 * the limit (the declared length is checked first, so a large upload is refused before it is read). The body is then
 * a StoredUpload for the request's transaction to attach. An upload takes one of its organization's and its address's
 * slots until its answer is sent; when the request fails, its parts are dropped.
 */
export function fileBody(app: FastifyInstance) {
  let slots = slotsOf.get(app.db);
  if (!slots) {
    slots = new UploadSlots();
    slotsOf.set(app.db, slots);
  }
  const taken = slots;
  const finish = async (req: FastifyRequest, failed: boolean) => {
    const upload = uploadOf.get(req);
    if (!upload) return;
    uploadOf.delete(req);
    // Answered, the upload is over: its slot is free at once (a client's next file must not find it taken while a
    // refused one's parts are still being dropped, a round trip away on PostgreSQL).
    upload.release();
    if (!failed) return;
    try {
      await dropUpload(app.db, upload.orgId, upload.uploadId);
    } catch (err) {
      req.log.warn({ err }, "could not drop the parts of a failed upload (the daily purge will)");
    }
  };
  app.addHook("onResponse", (req, reply) => finish(req, reply.statusCode >= 400));
  app.addHook("onRequestAbort", (req) => finish(req, true));

  app.addContentTypeParser("application/octet-stream", (req, payload, done) => {
    const max = app.attachmentLimits.max_file_bytes;
    const tooLarge = () =>
      new AppError("PAYLOAD_TOO_LARGE", `The file is too large: a file can be at most ${formatBytes(max)}.`);
    if (Number(req.headers["content-length"]) > max) return done(tooLarge(), undefined);
    // Every route that takes a file is a signed-in one: access control has found who uploads.
    const orgId = req.principal?.orgId;
    if (!orgId) return done(sessionEnded(), undefined);
    let release: () => void;
    try {
      release = taken.take(orgId, req.ip);
    } catch (err) {
      return done(err as Error, undefined);
    }
    const upload: StoredUpload = { uploadId: randomUUID(), size: 0, head: Buffer.alloc(0) };
    uploadOf.set(req, { release, orgId, uploadId: upload.uploadId });
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    let settled = false;
    // Writes run one after another, in order, whatever the stream does meanwhile.
    let writing = Promise.resolve();
    const stop = () => {
      payload.removeListener("data", onData);
      payload.removeListener("end", onEnd);
      payload.removeListener("error", onError);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      stop();
      payload.resume();
      done(err, undefined);
    };
    /** Writes the parts held (a last, shorter one at the end), one short transaction each. */
    const write = async (final: boolean) => {
      let held = Buffer.concat(pending);
      while (held.length >= UPLOAD_PART_BYTES || (final && held.length > 0)) {
        const part = held.subarray(0, UPLOAD_PART_BYTES);
        await writeUploadPart(app.db, orgId, upload.uploadId, seq++, Buffer.from(part));
        held = held.subarray(part.length);
      }
      pending = held.length > 0 ? [held] : [];
      pendingBytes = held.length;
    };
    const onData = (chunk: Buffer) => {
      upload.size += chunk.length;
      if (upload.size > max) return fail(tooLarge());
      if (upload.head.length < HEAD_BYTES) {
        upload.head = Buffer.concat([upload.head, chunk]).subarray(0, HEAD_BYTES);
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < UPLOAD_PART_BYTES) return;
      payload.pause();
      writing = writing.then(() => write(false));
      writing.then(() => {
        if (!settled) payload.resume();
      }, fail);
    };
    const onEnd = () => {
      stop();
      writing = writing.then(() => write(true));
      writing.then(() => {
        if (settled) return;
        settled = true;
        done(null, upload);
      }, fail);
    };
    const onError = (err: Error) => fail(err);
    payload.on("data", onData);
    payload.on("end", onEnd);
    payload.on("error", onError);
  });
}

/** The stored upload a route received as its body. */
export function fileBytes(body: unknown): StoredUpload {
  const upload = body as StoredUpload | undefined;
  if (!upload || typeof upload.uploadId !== "string" || upload.size === 0) {
    throw new AppError("BAD_REQUEST", "Send the file's bytes as the body (Content-Type: application/octet-stream).");
  }
  return upload;
}

export function sendFile(reply: FastifyReply, file: { filename: string; contentType: string; bytes: Buffer }) {
  const inline = isInlineImage(file.contentType);
  return reply
    .header("content-type", file.contentType)
    .header("content-disposition", contentDisposition(file.filename, { type: inline ? "inline" : "attachment" }))
    .header("cache-control", "private, max-age=300")
    .send(file.bytes);
}
