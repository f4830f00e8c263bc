import { convertTrialBody, subscribeAnswer } from "@cove/contract/billing.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import { trialStatus } from "@cove/contract/trial.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import { billingDeps } from "./billing.routes.ts";
import * as billing from "./billing.service.ts";
import type { Payments } from "./payments.ts";
import * as trial from "./trial.service.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  402: errorSchema,
  403: errorSchema,
  409: errorSchema,
  502: errorSchema,
};

export async function trialRoutes(fastify: FastifyInstance, opts: { payments: Payments }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/trial/status", {
    config: { access: "authenticated" },
    schema: {
      tags: ["billing"],
      summary: "The organization's trial: whether it is on one, days left, expired; and whether it is read-only",
      response: { 200: trialStatus, 401: errorSchema },
    },
    handler: async (req) => inRequest(app, req, (ctx) => trial.trialStatus(ctx)),
  });

  app.post("/api/trial/convert", {
    config: { access: "admin", allowedWhenReadOnly: true },
    schema: {
      tags: ["billing"],
      summary: "Convert the trial to a paid plan (Starter unless another plan is sent) with the payment form's card",
      body: convertTrialBody,
      response: { 200: subscribeAnswer, ...errors },
    },
    handler: (req) => billing.subscribe(billingDeps(app, req, opts.payments), req.body, "convert"),
  });
}
