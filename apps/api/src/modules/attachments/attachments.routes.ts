import { attachmentLimitsApi } from "@cove/contract/attachment-limits.ts";
import { attachmentsApi } from "@cove/contract/attachments.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import { addRoute } from "../../platform/routes.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "./attachments.http.ts";
import { purgeStaleUploads, readAttachment, uploadForReply, uploadPending } from "./attachments.store.ts";

const PURGE_QUEUE: JobQueue<object> = {
  name: "attachments-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/**
 * A ticket's files: uploaded by its organization's members, or by its customer in the portal, and served to whoever may
 * read the message they came with (staff: the whole ticket; the customer: its public conversation). The contract's
 * attachmentsApi, and attachmentLimitsApi for the limits.
 */
export async function attachmentRoutes(app: FastifyInstance) {
  app.jobs.work(PURGE_QUEUE, async () => {
    await purgeStaleUploads(app.db);
  });
  app.jobs.schedule(PURGE_QUEUE, "41 3 * * *");
  fileBody(app);

  addRoute(app, attachmentLimitsApi.limits, {
    handler: async (_req, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return { limits: app.attachmentLimits };
    },
  });

  addRoute(app, attachmentsApi.uploadForReply, {
    config: { rateLimit: UPLOAD_RATE_LIMIT },
    handler: async (req, reply) => {
      const ticketId = recordId("Ticket", req.params.id);
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, (ctx) =>
        uploadForReply(ctx, ticketId, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });

  addRoute(app, attachmentsApi.upload, {
    config: { rateLimit: UPLOAD_RATE_LIMIT },
    handler: async (req, reply) => {
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, (ctx) =>
        uploadPending(ctx, { userId: ctx.userId }, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });

  addRoute(app, attachmentsApi.file, {
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

  addRoute(app, attachmentsApi.portalUpload, {
    config: { rateLimit: UPLOAD_RATE_LIMIT },
    handler: async (req, reply) => {
      const bytes = fileBytes(req.body);
      const attachment = await inRequest(app, req, "customer", (ctx) =>
        uploadPending(ctx, { contactId: ctx.contactId }, req.query.filename, bytes, app.attachmentLimits),
      );
      return reply.code(201).send({ attachment });
    },
  });
}
