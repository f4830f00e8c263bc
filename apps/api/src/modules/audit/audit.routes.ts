import {
  auditActorsAnswer,
  auditFilterQuery,
  auditListAnswer,
  auditListQuery,
  auditVerifyAnswer,
} from "@cove/contract/audit.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import type { ExecuteSql } from "../../platform/db.ts";
import type { JobQueue } from "../../platform/jobs.ts";
import * as service from "./audit.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };
const tags = ["audit log"];
const admin = { access: "admin", allowedWhenReadOnly: true } as const;

const PURGE_QUEUE: JobQueue<object> = {
  name: "audit-log-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** The audit log (admins): its entries with filters, the same as CSV, and the check of its hash chain. */
export async function auditRoutes(fastify: FastifyInstance, opts: { executeSql: ExecuteSql }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.jobs.work(PURGE_QUEUE, async () => {
    const purged = await service.purgeOldEntries(opts.executeSql);
    if (purged > 0) app.log.info({ purged }, "audit log entries past their retention deleted");
  });
  app.jobs.schedule(PURGE_QUEUE, "29 3 * * *");

  app.get("/api/audit-log", {
    config: admin,
    schema: {
      tags,
      summary: "The audit log, newest first, filtered by actor, action and dates (next_cursor reads on)",
      querystring: auditListQuery,
      response: { 200: auditListAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.listEntries(ctx, req.query)),
  });

  app.get("/api/audit-log.csv", {
    config: admin,
    schema: {
      tags,
      summary: "The audit log as CSV, with the same filters (newest first)",
      querystring: auditFilterQuery,
      response: { 200: z.string().describe("CSV (text/csv)"), ...errors },
    },
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

  app.get("/api/audit-log/actors", {
    config: admin,
    schema: {
      tags,
      summary: "Everyone the audit log names, for its filter",
      response: { 200: auditActorsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.listActors),
  });

  app.get("/api/audit-log/verify", {
    config: admin,
    schema: {
      tags,
      summary: "Checks the audit log's hash chain from its oldest kept entry",
      response: { 200: auditVerifyAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.verify),
  });
}
