import { errorSchema } from "@cove/contract/errors.ts";
import { dataExportAnswer, exportParams } from "@cove/contract/settings.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import * as exports from "./export.service.ts";

const errors = { 401: errorSchema, 403: errorSchema, 404: errorSchema };
const tags = ["organization"];

/** The organization's data export (admins): start it, follow its progress, download the ZIP. Works while read-only. */
export async function exportRoutes(
  fastify: FastifyInstance,
  opts: { embedded: boolean; contactExport?: exports.ContactExportBuilder },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // One job for both kinds: a customer's export (its routes are the privacy module's) is made by contactExport.
  exports.registerExportJob(app.jobs, app.db, opts.contactExport);
  // Once the queue runs: exports an earlier start left running (a crash, a kill) are resumed at once.
  app.addHook("onReady", async () => {
    const resumed = await exports.resumeDeadExports(app.db, app.jobs, opts.embedded);
    if (resumed > 0) app.log.warn(`${resumed} data export(s) interrupted by an earlier stop were started again`);
  });

  app.post("/api/organization/export", {
    config: { access: "admin", allowedWhenReadOnly: true },
    schema: {
      tags,
      summary: "Start an export of all the organization's data (or answer the one under way)",
      response: { 202: dataExportAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(202).send({ export: await inRequest(app, req, (ctx) => exports.requestExport(ctx, app.jobs)) }),
  });

  app.get("/api/organization/export", {
    config: { access: "admin" },
    schema: { tags, summary: "The latest export and its progress", response: { 200: dataExportAnswer, ...errors } },
    handler: async (req) => ({ export: await inRequest(app, req, exports.latestExport) }),
  });

  app.get("/api/organization/export/:id/download", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Download a finished export (a ZIP of JSON files)",
      params: exportParams,
      response: { 200: z.unknown().describe("A ZIP file (application/zip)"), ...errors },
    },
    handler: async (req, reply) => {
      const file = await inRequest(app, req, (ctx) => exports.exportFile(ctx, req.params.id));
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", contentDisposition(file.filename))
        .header("cache-control", "no-store")
        .send(file.bytes);
    },
  });
}
