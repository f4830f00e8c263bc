import { onboardingApi } from "@cove/contract/onboarding.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { addRoute } from "../../platform/routes.ts";
import * as service from "./onboarding.service.ts";

/**
 * The getting-started checklist on the dashboard (the contract's onboardingApi): read by any member, dismissed by each
 * for themselves.
 */
export async function onboardingRoutes(app: FastifyInstance) {
  addRoute(app, onboardingApi.get, { handler: (req) => inRequest(app, req, service.onboarding) });

  addRoute(app, onboardingApi.setDismissed, {
    // Hiding the checklist is the member's own view, like their profile: open in read-only mode too.
    config: { allowedWhenReadOnly: true },
    handler: (req) => inRequest(app, req, (ctx) => service.setDismissed(ctx, req.body.dismissed)),
  });
}
