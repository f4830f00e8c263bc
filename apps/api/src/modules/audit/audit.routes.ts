import { auditApi } from "@cove/contract/audit.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import type { ExecuteSql } from "../../platform/db.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./audit.service.ts";

// The audit log stays readable while the organization is read-only.
const config = { allowedWhenReadOnly: true } as const;

const PURGE_QUEUE: JobQueue<object> = {
  name: "audit-log-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/**
 * The audit log (admins; the contract's auditApi): its entries with filters, the same as CSV, and the check of its
 * hash chain.
 */
export async function auditRoutes(app: FastifyInstance, opts: { executeSql: ExecuteSql }) {
  app.jobs.work(PURGE_QUEUE, async () => {
    const purged = await service.purgeOldEntries(opts.executeSql);
    if (purged > 0) app.log.info({ purged }, "audit log entries past their retention deleted");
  });
  app.jobs.schedule(PURGE_QUEUE, "29 3 * * *");

  addRoute(app, auditApi.list, {
    config,
    handler: (req) => inRequest(app, req, (ctx) => service.listEntries(ctx, req.query)),
  });

  addRoute(app, auditApi.csv, {
    config,
    handler: async (req, reply) => {
      const csv = await inRequest(app, req, (ctx) => service.entriesCsv(ctx, req.query));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", contentDisposition(`audit-log-${day}.csv`))
        .header("cache-control", "no-store")
        .send(csv);
    },
  });

  addRoute(app, auditApi.actors, { config, handler: (req) => inRequest(app, req, service.listActors) });

  addRoute(app, auditApi.verify, { config, handler: (req) => inRequest(app, req, service.verify) });
}
