import { HELP_FEEDBACK_THANKS, helpCenterApi } from "@cove/contract/kb.ts";
import type { FastifyInstance } from "fastify";
import { orgOfSlug } from "../../platform/organizations.ts";
import { addRoute } from "../../platform/routes.ts";
import { sendFile } from "../attachments/index.ts";
import * as service from "./kb-public.service.ts";

/**
 * Anyone may read an organization's help center, so every request that writes (a view, a vote) or costs a search is
 * limited per address; a visitor reading normally never comes near these.
 */
const limits = {
  search: { max: 60, timeWindow: "1 minute" },
  article: { max: 60, timeWindow: "1 minute" },
  feedback: { max: 20, timeWindow: "10 minutes" },
  file: { max: 120, timeWindow: "1 minute" },
};

/** The public help center (the contract's helpCenterApi): published articles only, no sign-in. */
export async function kbPublicRoutes(app: FastifyInstance) {
  addRoute(app, helpCenterApi.center, {
    handler: (req) => service.helpCenter(app.db, req.params.orgSlug),
  });

  addRoute(app, helpCenterApi.search, {
    config: { rateLimit: limits.search },
    handler: (req) => service.searchHelpCenter(app.db, req.params.orgSlug, req.query.q),
  });

  addRoute(app, helpCenterApi.article, {
    config: { rateLimit: limits.article },
    handler: (req) => service.helpArticle(app.db, req.params.orgSlug, req.params.articleSlug),
  });

  addRoute(app, helpCenterApi.articleFile, {
    config: { rateLimit: limits.file },
    handler: async (req, reply) =>
      sendFile(
        reply,
        await service.helpArticleFile(app.db, req.params.orgSlug, req.params.articleSlug, req.params.fileId),
      ),
  });

  addRoute(app, helpCenterApi.feedback, {
    config: { writesTo: orgOfSlug, rateLimit: limits.feedback },
    handler: async (req) => {
      await service.recordHelpFeedback(app.db, req.params.orgSlug, req.params.articleSlug, req.body.helpful);
      return { message: HELP_FEEDBACK_THANKS };
    },
  });
}
