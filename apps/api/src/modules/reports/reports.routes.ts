import { Readable } from "node:stream";
import { REPORT_SECTIONS, type ReportQuery, reportQuery, reportsApi, reportTable } from "@cove/contract/reports.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { expireAnswer } from "../../platform/answer-cache.ts";
import { inRequest } from "../../platform/auth.ts";
import { csvTable } from "../../platform/csv.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./reports.service.ts";

const csvHeaders = (name: string, q: { from: string; to: string }) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": contentDisposition(`${name}-${q.from}-to-${q.to}.csv`),
  "cache-control": "no-store",
});

/** A report's part of the answer cache's key: every field of its query (the time zone and date are added: daily). */
const reportKey = (req: FastifyRequest) => {
  const q = req.query as ReportQuery;
  return (Object.keys(reportQuery.shape) as (keyof ReportQuery)[]).map((field) => q[field]);
};

/**
 * Reports (docs/reports.md; the contract's reportsApi): every section in one answer, each section as CSV, and one row
 * per ticket. Staff only; reading changes nothing.
 */
export async function reportsRoutes(app: FastifyInstance) {
  // Cached (platform/answer-cache.ts): every table a report reads bumps the data version (migration
  // *_report_data_versions.sql), the time zone is in the key, and an answer expires when its next due time passes.
  addRoute(app, reportsApi.report, {
    config: { answerCache: { key: reportKey, daily: true } },
    handler: async (req) => {
      const { answer, until } = await inRequest(app, req, (ctx) => service.buildReport(ctx, req.query));
      expireAnswer(req, until);
      return answer;
    },
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
        const { answer: report } = await inRequest(app, req, (ctx) => service.buildReport(ctx, req.query));
        const table = reportTable(report, section);
        return reply
          .headers(csvHeaders(section.replace("_", "-"), req.query))
          .send(csvTable(table.columns, table.rows));
      },
    });
  }
}
