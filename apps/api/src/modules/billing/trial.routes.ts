import { trialApi } from "@cove/contract/trial.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import { billingDeps } from "./billing.routes.ts";
import * as billing from "./billing.service.ts";
import type { Payments } from "./payments.ts";
import * as trial from "./trial.service.ts";

/** The trial (the contract's trialApi): its status for the banner, and its conversion to a paid plan. */
export async function trialRoutes(app: FastifyInstance, opts: { payments: Payments }) {
  addRoute(app, trialApi.status, {
    handler: async (req) => inRequest(app, req, (ctx) => trial.trialStatus(ctx)),
  });

  // Converting is how a read-only organization whose trial ended gets out of it.
  addRoute(app, trialApi.convert, {
    config: { allowedWhenReadOnly: true },
    handler: (req) => billing.subscribe(billingDeps(app, req, opts.payments), req.body, "convert"),
  });
}
