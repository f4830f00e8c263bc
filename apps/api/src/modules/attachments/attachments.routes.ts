import { ATTACHMENT_MAX_BYTES, attachmentAnswer, uploadAttachmentQuery } from "@cove/contract/attachments.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inActorTenant, inTenant } from "../../platform/auth.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import {
  contentDisposition,
  isInlineImage,
  purgeStaleUploads,
  readAttachment,
  uploadForReply,
} from "./attachments.store.ts";

const PURGE_QUEUE: JobQueue<object> = {
  name: "attachments-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** A ticket's files, served to whoever may read the ticket: its organization's members and API keys. */
export async function attachmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.jobs.work(PURGE_QUEUE, async () => {
    await purgeStaleUploads(app.db);
  });
  app.jobs.schedule(PURGE_QUEUE, "41 3 * * *");
  // A file is uploaded as it is: its bytes are the body.
  app.addContentTypeParser(
    "application/octet-stream",
    { parseAs: "buffer", bodyLimit: ATTACHMENT_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );

  app.post("/api/tickets/:id/attachments", {
    config: { access: "authenticated" },
    bodyLimit: ATTACHMENT_MAX_BYTES,
    schema: {
      tags: ["tickets"],
      summary: "Upload a file for a reply (the body is the file, application/octet-stream); attach it by its id",
      params: idParams,
      querystring: uploadAttachmentQuery,
      response: { 201: attachmentAnswer, ...errors, 413: errorSchema, 415: errorSchema },
    },
    handler: async (req, reply) => {
      const ticketId = recordId("Ticket", req.params.id);
      const bytes = req.body;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
        throw new AppError(
          "BAD_REQUEST",
          "Send the file's bytes as the body (Content-Type: application/octet-stream).",
        );
      }
      const attachment = await inTenant(app, req, (ctx) => uploadForReply(ctx, ticketId, req.query.filename, bytes));
      return reply.code(201).send({ attachment });
    },
  });
  app.get("/api/tickets/:id/attachments/:attachmentId", {
    config: { access: "authenticated", actors: ["api_key"] },
    schema: {
      tags: ["tickets"],
      summary: "A file of a ticket: shown inline when a safe image, else a download",
      params: z.object({ id: z.string(), attachmentId: z.string() }),
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) => {
      const file = await inActorTenant(app, req, (ctx) =>
        readAttachment(
          ctx.db,
          ctx.orgId,
          recordId("Attachment", req.params.id),
          recordId("Attachment", req.params.attachmentId),
        ),
      );
      if (!file) throw notFound("Attachment");
      const inline = isInlineImage(file.contentType);
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", contentDisposition(inline ? "inline" : "attachment", file.filename))
        .header("cache-control", "private, max-age=300")
        .send(file.bytes);
    },
  });
}
