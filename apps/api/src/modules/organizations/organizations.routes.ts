import { errorSchema } from "@cove/contract/errors.ts";
import { organizationStats } from "@cove/contract/tickets.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import * as service from "./organizations.service.ts";

export async function organizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/organizations/stats", {
    config: { access: "authenticated", answerCache: { key: () => [], daily: true } },
    schema: {
      tags: ["organizations"],
      summary: "Active team members and the 30-day ticket trend",
      response: { 200: organizationStats, 401: errorSchema },
    },
    handler: (req) => inRequest(app, req, service.organizationStats),
  });
}
