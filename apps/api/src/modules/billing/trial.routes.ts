import { errorSchema } from "@cove/contract/errors.ts";
import { trialStatus } from "@cove/contract/trial.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inTenant } from "../../platform/auth.ts";
import * as trial from "./trial.service.ts";

export async function trialRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/trial/status", {
    config: { access: "authenticated" },
    schema: {
      tags: ["billing"],
      summary: "The organization's trial: whether it is on one, days left, expired",
      response: { 200: trialStatus, 401: errorSchema },
    },
    handler: async (req) => inTenant(app, req, (ctx) => trial.trialStatus(ctx)),
  });
}
