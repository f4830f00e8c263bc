import { Readable } from "node:stream";
import { errorSchema } from "@cove/contract/errors.ts";
import { REPORT_SECTIONS, reportAnswer, reportQuery, reportTable } from "@cove/contract/reports.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { csvTable } from "../../platform/csv.ts";
import * as service from "./reports.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };
const tags = ["reports"];
/** Staff only (agents and admins): customers' and API keys' tokens are refused. Reading changes nothing. */
const staff = { access: "authenticated" } as const;
const csvAnswer = z.string().describe("CSV (text/csv)");

const csvHeaders = (name: string, q: { from: string; to: string }) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": contentDisposition(`${name}-${q.from}-to-${q.to}.csv`),
  "cache-control": "no-store",
});

/** Reports (docs/reports.md): every section in one answer, each section as CSV, and one row per ticket. */
export async function reportsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/reports", {
    config: staff,
    schema: {
      tags,
      summary: "Every report section for a range of days, grouped by day, week or month, with filters",
      querystring: reportQuery,
      response: { 200: reportAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.buildReport(ctx, req.query)),
  });

  // Declared before the sections' routes: a static path, so "tickets" is never read as a section.
  app.get("/api/reports/tickets.csv", {
    config: staff,
    schema: {
      tags,
      summary: "One row per ticket created in the range, with every figure (streamed CSV)",
      querystring: reportQuery,
      response: { 200: csvAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const lines = await service.ticketsCsv((fn) => inRequest(app, req, fn), req.query);
      // A stream is piped as it is (never serialized); the schema's string is what the document says it is.
      return reply.headers(csvHeaders("tickets", req.query)).send(Readable.from(lines) as unknown as string);
    },
  });

  for (const section of REPORT_SECTIONS) {
    app.get(`/api/reports/${section}.csv`, {
      config: staff,
      schema: {
        tags,
        summary: `The ${section.replace("_", " ")} section as CSV, as its table shows it`,
        querystring: reportQuery,
        response: { 200: csvAnswer, ...errors },
      },
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
