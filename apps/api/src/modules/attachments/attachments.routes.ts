import { attachmentLimitsAnswer } from "@cove/contract/attachment-limits.ts";
import { attachmentAnswer, uploadAttachmentQuery } from "@cove/contract/attachments.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "./attachments.http.ts";
import { purgeStaleUploads, readAttachment, uploadForReply, uploadPending } from "./attachments.store.ts";

const PURGE_QUEUE: JobQueue<object> = {
  name: "attachments-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const uploadErrors = { ...errors, 409: errorSchema, 413: errorSchema, 415: errorSchema, 429: errorSchema };

const fileParams = z.object({ id: z.string(), attachmentId: z.string() });

/**
 * A ticket's files: uploaded by its organization's members, or by its customer in the portal, and served to whoever may
 * read the message they came with (staff: the whole ticket; the customer: its public conversation).
 */
export async function attachmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.jobs.work(PURGE_QUEUE, async () => {
    await purgeStaleUploads(app.db);
  });
  app.jobs.schedule(PURGE_QUEUE, "41 3 * * *");
  fileBody(app);

  app.get("/api/public/attachment-limits", {
    config: { access: "public" },
    schema: {
      tags: ["tickets"],
      summary: "The size and count limits of files (per file and per message), to say them before uploading",
      response: { 200: attachmentLimitsAnswer },
    },
    handler: async (_req, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return { limits: app.attachmentLimits };
    },
  });

  app.post("/api/tickets/:id/attachments", {
    config: { access: "authenticated", rateLimit: UPLOAD_RATE_LIMIT },
    schema: {
      tags: ["tickets"],
      summary: "Upload a file for a reply (the body is the file, application/octet-stream); attach it by its id",
      params: idParams,
      querystring: uploadAttachmentQuery,
      response: { 201: attachmentAnswer, ...uploadErrors },
    },
    handler: async (req, reply) => {
      const ticketId = recordId("Ticket", req.params.id);
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, (ctx) =>
        uploadForReply(ctx, ticketId, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });

  app.post("/api/attachments", {
    config: { access: "authenticated", rateLimit: UPLOAD_RATE_LIMIT },
    schema: {
      tags: ["tickets"],
      summary:
        "Upload a file for a ticket you are creating (the body is the file, application/octet-stream); send its id with it",
      querystring: uploadAttachmentQuery,
      response: { 201: attachmentAnswer, ...uploadErrors },
    },
    handler: async (req, reply) => {
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, (ctx) =>
        uploadPending(ctx, { userId: ctx.userId }, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });

  app.get("/api/tickets/:id/attachments/:attachmentId", {
    config: { access: "authenticated", actors: ["api_key"] },
    schema: {
      tags: ["tickets"],
      summary: "A file of a ticket: shown inline when a safe image, else a download",
      params: fileParams,
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) => {
      const file = await inRequest(app, req, "api_key", (ctx) =>
        readAttachment(
          ctx.db,
          ctx.orgId,
          recordId("Attachment", req.params.id),
          recordId("Attachment", req.params.attachmentId),
        ),
      );
      if (!file) throw notFound("Attachment");
      return sendFile(reply, file);
    },
  });

  app.post("/api/portal/attachments", {
    config: { access: "authenticated", actors: ["contact"], rateLimit: UPLOAD_RATE_LIMIT },
    schema: {
      tags: ["customer portal"],
      summary:
        "Upload a file for a reply or a new ticket (the body is the file, application/octet-stream); send its id with it",
      querystring: uploadAttachmentQuery,
      response: { 201: attachmentAnswer, ...uploadErrors },
    },
    handler: async (req, reply) => {
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, "customer", (ctx) =>
        uploadPending(ctx, { contactId: ctx.contactId }, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });
}
