import { aiApi } from "@cove/contract/ai.ts";
import { DEMO_UNAVAILABLE } from "@cove/contract/constants.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { inRequest, optionalPrincipal } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { addRoute } from "../../platform/routes.ts";
import { findDemoOrganization } from "../demo/index.ts";
import * as service from "./ai.service.ts";
import type { AiProvider } from "./provider.ts";

/** Public (signed-out) questions per address: enough for a person trying the demo, not for a script. */
export const PUBLIC_ASKS_PER_MINUTE = 20;

/** The assistant (the contract's aiApi): asking and rating it, its unanswered questions, its settings and stats. */
export async function aiRoutes(app: FastifyInstance, opts: { provider: AiProvider }) {
  // The console's questions and ratings are its organization's (refused while read-only); the public demo's are Cove's.
  const consoleOrg = async (req: FastifyRequest) => (await optionalPrincipal(app, req))?.orgId ?? null;

  // Asking and rating, from the console or the public demo.
  const askConfig = {
    writesTo: consoleOrg,
    rateLimit: {
      max: PUBLIC_ASKS_PER_MINUTE,
      timeWindow: "1 minute",
      // Staff calls carry a token (checked in the handler; a bad one is refused), so only visitors are limited.
      allowList: (req: FastifyRequest) => req.headers.authorization !== undefined,
    },
  };
  /** The asker's organization: a signed-in member's, else the demo's (none on a server without the demo). */
  const askerOrg = async (req: FastifyRequest) => {
    const principal = await optionalPrincipal(app, req);
    const orgId = principal?.orgId ?? (await findDemoOrganization(app.db))?.id;
    if (!orgId) throw new AppError("DEMO_UNAVAILABLE", DEMO_UNAVAILABLE);
    return { orgId, signedIn: principal !== null };
  };

  addRoute(app, aiApi.ask, {
    config: askConfig,
    handler: async (req) => {
      const { orgId, signedIn } = await askerOrg(req);
      const channel = signedIn ? "console" : "demo";
      return service.answerQuestion(
        { db: app.db, orgId, provider: opts.provider, channel, metrics: app.metrics },
        req.body,
      );
    },
  });

  addRoute(app, aiApi.feedback, {
    config: askConfig,
    handler: async (req) => {
      const { orgId, signedIn } = await askerOrg(req);
      return service.recordAnswerFeedback(app.db, orgId, req.body, signedIn ? undefined : "demo");
    },
  });

  addRoute(app, aiApi.unanswered, {
    handler: async (req) =>
      service.withClosestArticles(await inRequest(app, req, (ctx) => service.unansweredQuestions(ctx, app.db))),
  });

  addRoute(app, aiApi.attachUnanswered, {
    handler: (req) => inRequest(app, req, (ctx) => service.attachUnanswered(ctx, req.body)),
  });

  addRoute(app, aiApi.newArticle, {
    handler: async (req, reply) => {
      const created = await inRequest(app, req, (ctx) => service.newArticleFromUnanswered(ctx, req.body));
      return reply.code(201).send(created);
    },
  });

  addRoute(app, aiApi.settings, {
    handler: async (req) => ({ settings: await inRequest(app, req, service.getSettings) }),
  });

  addRoute(app, aiApi.updateSettings, {
    handler: async (req) => ({ settings: await inRequest(app, req, (ctx) => service.updateSettings(ctx, req.body)) }),
  });

  addRoute(app, aiApi.stats, {
    handler: (req) => inRequest(app, req, service.answerStats),
  });
}
