import { errorSchema } from "@cove/contract/errors.ts";
import { onboardingAnswer, onboardingBody } from "@cove/contract/onboarding.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inRequest } from "../../platform/auth.ts";
import * as service from "./onboarding.service.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };
const tags = ["onboarding"];

/** The getting-started checklist on the dashboard: read by any member, dismissed by each for themselves. */
export async function onboardingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/onboarding", {
    config: { access: "authenticated" },
    schema: {
      tags,
      summary: "The organization's first steps, each done or not, and whether you dismissed the checklist",
      response: { 200: onboardingAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.onboarding),
  });

  app.put("/api/onboarding", {
    // Hiding the checklist is the member's own view, like their profile: open in read-only mode too.
    config: { access: "authenticated", allowedWhenReadOnly: true },
    schema: {
      tags,
      summary: "Dismiss the checklist for yourself ({dismissed: true}), or bring it back ({dismissed: false})",
      body: onboardingBody,
      response: { 200: onboardingAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, (ctx) => service.setDismissed(ctx, req.body.dismissed)),
  });
}
