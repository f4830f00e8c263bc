import { eraseContactAnswer, eraseContactBody } from "@cove/contract/contacts.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import { dataExportAnswer } from "@cove/contract/settings.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { idParams, recordId } from "../../platform/ids.ts";
import type { ContactRecords } from "../contacts/index.ts";
import * as privacy from "./privacy.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const tags = ["contacts"];
const downloadParams = z.object({ id: z.string(), exportId: z.string() });

/**
 * A customer's data on request (admins): export it (a ZIP made in the background, like the organization's export) or
 * erase the customer. Both work while the organization is read-only: a customer's rights do not lapse with a plan.
 */
export async function privacyRoutes(fastify: FastifyInstance, { records }: { records: ContactRecords }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const config = { access: "admin", allowedWhenReadOnly: true } as const;

  app.post("/api/contacts/:id/export", {
    config,
    schema: {
      tags,
      summary: "Start an export of a customer's data (or answer the one under way)",
      params: idParams,
      response: { 202: dataExportAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const id = recordId("Contact", req.params.id);
      const started = await inRequest(app, req, (ctx) => privacy.requestCustomerExport(ctx, app.jobs, id));
      return reply.status(202).send({ export: started });
    },
  });

  app.get("/api/contacts/:id/export", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "The latest export of a customer's data and its progress",
      params: idParams,
      response: { 200: dataExportAnswer, ...errors },
    },
    handler: async (req) => {
      const id = recordId("Contact", req.params.id);
      return { export: await inRequest(app, req, (ctx) => privacy.latestCustomerExport(ctx, id)) };
    },
  });

  app.get("/api/contacts/:id/export/:exportId/download", {
    config: { access: "admin" },
    schema: {
      tags,
      summary: "Download a finished export of a customer's data (a ZIP of JSON files and their files)",
      params: downloadParams,
      response: { 200: z.unknown().describe("A ZIP file (application/zip)"), ...errors },
    },
    handler: async (req, reply) => {
      const id = recordId("Contact", req.params.id);
      const file = await inRequest(app, req, (ctx) => privacy.customerExportFile(ctx, id, req.params.exportId));
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", contentDisposition(file.filename))
        .header("cache-control", "no-store")
        .send(file.bytes);
    },
  });

  app.post("/api/contacts/:id/erase", {
    config,
    schema: {
      tags,
      summary: "Erase a customer: their chats, files, surveys and sessions go; their name leaves their tickets",
      params: idParams,
      body: eraseContactBody,
      response: { 200: eraseContactAnswer, 409: errorSchema, 422: errorSchema, ...errors },
    },
    handler: async (req) => {
      const id = recordId("Contact", req.params.id);
      return inRequest(app, req, (ctx) => privacy.eraseCustomer(ctx, records, id, req.body.confirmEmail));
    },
  });
}
