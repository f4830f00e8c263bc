import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inActorTenant } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { contentDisposition, isInlineImage, readAttachment } from "./attachments.store.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** A ticket's files, served to whoever may read the ticket: its organization's members and API keys. */
export async function attachmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
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
