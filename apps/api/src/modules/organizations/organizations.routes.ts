import { organizationsApi } from "@cove/contract/tickets.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./organizations.service.ts";

/** The organization's figures for the dashboard (the contract's organizationsApi). */
export async function organizationRoutes(app: FastifyInstance) {
  addRoute(app, organizationsApi.stats, {
    config: { answerCache: { key: () => [], daily: true } },
    handler: (req) => inRequest(app, req, service.organizationStats),
  });
}
