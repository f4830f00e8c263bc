import { Readable } from "node:stream";
import { REPORT_SECTIONS, reportsApi, reportTable } from "@cove/contract/reports.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { csvTable } from "../../platform/csv.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./reports.service.ts";

const csvHeaders = (name: string, q: { from: string; to: string }) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": contentDisposition(`${name}-${q.from}-to-${q.to}.csv`),
  "cache-control": "no-store",
});

/**
 * Reports (docs/reports.md; the contract's reportsApi): every section in one answer, each section as CSV, and one row
 * per ticket. Staff only; reading changes nothing.
 */
export async function reportsRoutes(app: FastifyInstance) {
  addRoute(app, reportsApi.report, {
    handler: (req) => inRequest(app, req, (ctx) => service.buildReport(ctx, req.query)),
  });

  // Declared before the sections' routes: a static path, so "tickets" is never read as a section.
  addRoute(app, reportsApi.ticketsCsv, {
    handler: async (req, reply) => {
      const lines = await service.ticketsCsv((fn) => inRequest(app, req, fn), req.query);
      // A stream is piped as it is (never serialized); the schema's string is what the document says it is.
      return reply.headers(csvHeaders("tickets", req.query)).send(Readable.from(lines) as unknown as string);
    },
  });

  for (const section of REPORT_SECTIONS) {
    addRoute(app, reportsApi.sectionCsv(section), {
      handler: async (req, reply) => {
        const report = await inRequest(app, req, (ctx) => service.buildReport(ctx, req.query));
        const table = reportTable(report, section);
        return reply
          .headers(csvHeaders(section.replace("_", "-"), req.query))
          .send(csvTable(table.columns, table.rows));
      },
    });
  }
}
