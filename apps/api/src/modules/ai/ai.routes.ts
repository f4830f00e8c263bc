import {
  aiResponseAnswer,
  aiResponseBody,
  aiSettingsAnswer,
  aiStatsAnswer,
  updateAiSettingsBody,
} from "@cove/contract/ai.ts";
import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { inTenant, optionalPrincipal } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { findDemoOrganization } from "../demo/demo.queries.ts";
import * as service from "./ai.service.ts";
import type { AiProvider } from "./provider.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema };

/** Public (signed-out) questions per address: enough for a person trying the demo, not for a script. */
export const PUBLIC_ASKS_PER_MINUTE = 20;

export async function aiRoutes(fastify: FastifyInstance, opts: { provider: AiProvider }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post("/api/chat/ai-response", {
    config: {
      access: "public",
      rateLimit: {
        max: PUBLIC_ASKS_PER_MINUTE,
        timeWindow: "1 minute",
        // Staff calls carry a token (checked in the handler; a bad one is refused), so only visitors are limited.
        allowList: (req) => req.headers.authorization !== undefined,
      },
    },
    schema: {
      tags: ["ai"],
      summary: "Ask the AI assistant",
      description:
        "With a staff bearer token the assistant answers from that organization's published articles (the test " +
        "console); without one, from the demo organization's (the public /ai-test page), rate-limited per address.",
      body: aiResponseBody,
      response: { 200: aiResponseAnswer, ...errors },
    },
    handler: async (req) => {
      const principal = await optionalPrincipal(app, req);
      const orgId = principal?.orgId ?? (await findDemoOrganization(app.db))?.id;
      if (!orgId) throw new AppError("DEMO_UNAVAILABLE", DEMO_UNAVAILABLE);
      const channel = principal ? "console" : "demo";
      return service.answerQuestion({ db: app.db, orgId, provider: opts.provider, channel }, req.body);
    },
  });

  app.get("/api/ai/settings", {
    config: { access: "authenticated" },
    schema: { tags: ["ai"], summary: "The assistant's settings", response: { 200: aiSettingsAnswer, ...errors } },
    handler: async (req) => ({ settings: await inTenant(app, req, service.getSettings) }),
  });

  app.put("/api/ai/settings", {
    config: { access: "admin" },
    schema: {
      tags: ["ai"],
      summary: "Change the assistant's settings (administrators)",
      body: updateAiSettingsBody,
      response: { 200: aiSettingsAnswer, ...errors },
    },
    handler: async (req) => ({ settings: await inTenant(app, req, (ctx) => service.updateSettings(ctx, req.body)) }),
  });

  app.get("/api/ai/stats", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "Measured resolution rate over the last 30 days",
      response: { 200: aiStatsAnswer, ...errors },
    },
    handler: (req) => inTenant(app, req, service.answerStats),
  });
}
