import { privacyApi } from "@cove/contract/contacts.ts";
import contentDisposition from "content-disposition";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import type { ContactRecords } from "../contacts/index.ts";
import * as privacy from "./privacy.service.ts";

/**
 * A customer's data on request (admins; the contract's privacyApi): export it (a ZIP made in the background, like the
 * organization's export) or erase the customer. Both work while the organization is read-only: a customer's rights
 * do not lapse with a plan.
 */
export async function privacyRoutes(app: FastifyInstance, { records }: { records: ContactRecords }) {
  const config = { allowedWhenReadOnly: true } as const;

  addRoute(app, privacyApi.startExport, {
    config,
    handler: async (req, reply) => {
      const id = recordId("Contact", req.params.id);
      const started = await inRequest(app, req, (ctx) => privacy.requestCustomerExport(ctx, app.jobs, id));
      return reply.status(202).send({ export: started });
    },
  });

  addRoute(app, privacyApi.latestExport, {
    handler: async (req) => {
      const id = recordId("Contact", req.params.id);
      return { export: await inRequest(app, req, (ctx) => privacy.latestCustomerExport(ctx, id)) };
    },
  });

  addRoute(app, privacyApi.downloadExport, {
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

  addRoute(app, privacyApi.erase, {
    config,
    handler: async (req) => {
      const id = recordId("Contact", req.params.id);
      return inRequest(app, req, (ctx) => privacy.eraseCustomer(ctx, records, id, req.body.confirmEmail));
    },
  });
}
