import { organizationExportApi } from "@cove/contract/settings.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as exports from "./export.service.ts";

/**
 * The organization's data export (admins; the contract's organizationExportApi): start it, follow its progress,
 * download the ZIP. Works while read-only.
 */
export async function exportRoutes(
  app: FastifyInstance,
  opts: { embedded: boolean; contactExport?: exports.ContactExportBuilder },
) {
  // One job for both kinds: a customer's export (its routes are the privacy module's) is made by contactExport.
  exports.registerExportJob(app.jobs, app.db, opts.contactExport);
  // Once the queue runs: exports an earlier start left running (a crash, a kill) are resumed at once.
  app.addHook("onReady", async () => {
    const resumed = await exports.resumeDeadExports(app.db, app.jobs, opts.embedded);
    if (resumed > 0) app.log.warn(`${resumed} data export(s) interrupted by an earlier stop were started again`);
  });

  // Starting an export works while read-only: the data stays the organization's to take away.
  addRoute(app, organizationExportApi.start, {
    config: { allowedWhenReadOnly: true },
    handler: async (req, reply) =>
      reply.status(202).send({ export: await inRequest(app, req, (ctx) => exports.requestExport(ctx, app.jobs)) }),
  });

  addRoute(app, organizationExportApi.latest, {
    handler: async (req) => ({ export: await inRequest(app, req, exports.latestExport) }),
  });

  addRoute(app, organizationExportApi.download, {
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
